"""Reads Bazel's --execution_log_json_file: a stream of SpawnExec objects.

As a script: `execlog.py LOG` prints "SPAWNS REMOTE_CACHE_HITS" and writes
the spawns that were not remote cache hits, one "MNEMONIC OUTPUTS..." line
each, to LOG.executed.
"""
import json
import sys


def load(path):
    """Returns the SpawnExec objects of the log at path, in order."""
    with open(path) as f:
        text = f.read()
    dec, i, spawns = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return spawns
        obj, i = dec.raw_decode(text, i)
        spawns.append(obj)


def outputs(spawn):
    """The output paths of a spawn, sorted."""
    outs = spawn.get("actualOutputs", spawn.get("listedOutputs", []))
    return sorted(o.get("path", "") for o in outs)


def main(path):
    spawns = load(path)
    executed = [s for s in spawns if not s.get("remoteCacheHit")]
    print("%d %d" % (len(spawns), len(spawns) - len(executed)))
    with open(path + ".executed", "w") as f:
        for s in executed:
            f.write("%s %s\n" % (s.get("mnemonic", "?"), " ".join(outputs(s))))


if __name__ == "__main__":
    main(sys.argv[1])
