"""petpack_archive: a `.petpack` V3 archive from declared frames, timing and metadata."""

load("//rules:providers.bzl", "PetpackInfo")
load("//rules:toolchain.bzl", "PET_TOOLCHAIN_TYPE")
load(":common.bzl", "petasset_tool")

# The nine fixed actions of the contract, in its order (section 4), and the
# five modes: //tests/actiontables holds both to runtime/petpack/model.
ACTIONS = ["idle", "thinking", "tool", "waiting", "done", "failed", "acknowledge", "drag_left", "drag_right"]

_MODES = ["loop", "periodic", "burst_then_settle", "burst_then_idle", "once_then_return"]

def petpack_timing(frame_durations_ms, mode, reduced_motion_frame_index, entry_repeat_count = None, settle_frame_index = None, cooldown_ms = None):
    """Spells one action's timing and playback for `petpack_archive`'s `timing`.

    The fields are the manifest's (contract section 5); the action's required
    mode and the mode's required and forbidden fields are checked by the
    validator in the build action, with the same rule names as for any
    package.

    Args:
      frame_durations_ms: one duration per frame, 50 to 2000 ms each.
      mode: the playback mode, e.g. `"burst_then_idle"`.
      reduced_motion_frame_index: the frame shown under Reduce Motion.
      entry_repeat_count: for the burst modes, 1 to 8.
      settle_frame_index: for `burst_then_settle`.
      cooldown_ms: for `periodic`, `[minimum, maximum]`.

    Returns:
      A JSON string for the `timing` dict.
    """
    if mode not in _MODES:
        fail("petpack_timing: mode %r is not one of %s" % (mode, ", ".join(_MODES)))
    playback = {"mode": mode}
    if entry_repeat_count != None:
        playback["entry_repeat_count"] = entry_repeat_count
    if settle_frame_index != None:
        playback["settle_frame_index"] = settle_frame_index
    if cooldown_ms != None:
        playback["cooldown_ms"] = cooldown_ms
    return json.encode({
        "frame_durations_ms": frame_durations_ms,
        "playback": playback,
        "reduced_motion_frame_index": reduced_motion_frame_index,
    })

def _optional_path(f):
    return f.path if f else ""

def _petpack_archive_impl(ctx):
    for action in ctx.attr.timing:
        if action not in ACTIONS:
            fail("petpack_archive %s: timing names %r, which is not one of the nine actions (%s)" % (ctx.label, action, ", ".join(ACTIONS)))
    for action in ctx.attr.motions:
        if action not in ACTIONS:
            fail("petpack_archive %s: motions names %r, which is not one of the nine actions (%s)" % (ctx.label, action, ", ".join(ACTIONS)))
    if ctx.file.cover and ctx.attr.cover_frame:
        fail("petpack_archive %s: give cover or cover_frame, not both" % ctx.label)

    inputs = [ctx.file.prompt] + ctx.files.references
    states = []
    for action in ACTIONS:
        frames = getattr(ctx.files, action)
        inputs.extend(frames)
        timing = ctx.attr.timing.get(action)
        states.append({
            "frames": [f.path for f in frames],
            "name": action,
            "timing": json.decode(timing) if timing else None,
        })
    for f in [ctx.file.source, ctx.file.brief, ctx.file.session, ctx.file.cover, ctx.file.animated_preview]:
        if f:
            inputs.append(f)

    spec = ctx.actions.declare_file(ctx.label.name + ".petpack.json")
    ctx.actions.write(spec, json.encode({
        "animated_preview": _optional_path(ctx.file.animated_preview),
        "brief": _optional_path(ctx.file.brief),
        "cover": _optional_path(ctx.file.cover),
        "cover_frame": ctx.attr.cover_frame,
        "created_at": ctx.attr.created_at,
        "id": ctx.attr.pet_id,
        "name": ctx.attr.display_name,
        "producer": {
            "description": ctx.attr.description,
            "generator": ctx.attr.generator,
            "motions": ctx.attr.motions,
            "preview_only": {"": None, "false": False, "true": True}[ctx.attr.preview_only],
            "provenance": ctx.attr.provenance,
            "visual_source": ctx.attr.visual_source,
        },
        "prompt": ctx.file.prompt.path,
        "quality": ctx.attr.quality,
        "references": [f.path for f in ctx.files.references],
        "session": _optional_path(ctx.file.session),
        "source": _optional_path(ctx.file.source),
        "states": states,
        "style": ctx.attr.style,
    }))
    out = ctx.attr.out or ctx.attr.pet_id + ".petpack"
    if not out.endswith(".petpack") or out.startswith("/") or ".." in out.split("/"):
        fail("petpack_archive %s: out %r must be a path below the package ending in .petpack, such as \"%s.petpack\"" % (ctx.label, ctx.attr.out, ctx.attr.pet_id))
    archive = ctx.actions.declare_file(out)
    args = ctx.actions.args()
    args.add_all(["petpack", "assemble", "--spec", spec, "--out", archive])
    ctx.actions.run(
        executable = petasset_tool(ctx).petasset,
        arguments = [args],
        # The tool reads the spec and exactly the files it names; it places
        # each one itself, so a sandbox of symbolic links is fine.
        inputs = depset([spec] + inputs),
        outputs = [archive],
        mnemonic = "PetpackArchive",
        progress_message = "Building and validating %s" % archive.short_path,
    )
    return [
        DefaultInfo(files = depset([archive]), runfiles = ctx.runfiles(files = [archive])),
        PetpackInfo(archive = archive, pet_id = ctx.attr.pet_id, quality = ctx.attr.quality, spec = spec),
    ]

def _frames_attr(action):
    return attr.label_list(
        doc = "The `%s` action's frames in playing order (archived as `assets/frames/%s/0000.png`, `0001.png`, ...)." % (action, action),
        allow_files = [".png"],
        mandatory = True,
    )

_ATTRS = {
    "animated_preview": attr.label(
        doc = "`assets/preview/animated_preview.webp`; default: made from whole actions at their authored durations.",
        allow_single_file = [".webp"],
    ),
    "brief": attr.label(
        doc = "`brief.json` (`apc.pet-brief.v1`); default: generated from the manifest (name, style, quality, a state brief per action with its timing and `motions` text, `runtime`), `generation` (`generator`, `provenance`, `preview_only`), `description` and `references`.",
        allow_single_file = [".json"],
    ),
    "cover": attr.label(
        doc = "`assets/preview/cover.png`; default: made from `cover_frame`.",
        allow_single_file = [".png"],
    ),
    "cover_frame": attr.string(
        doc = "`ACTION/INDEX` (e.g. `idle/2`) of the frame the default cover is made from; default: idle's reduced-motion frame.",
    ),
    "created_at": attr.string(
        doc = "The manifest's RFC 3339 `created_at`. Written as given, never taken from a clock, so the archive is reproducible.",
        mandatory = True,
    ),
    "description": attr.string(
        doc = "brief.json's `description`, the character description; empty leaves it out.",
    ),
    "display_name": attr.string(
        doc = "The manifest `name`: the non-blank display name.",
        mandatory = True,
    ),
    "generator": attr.string(
        doc = "The producer the generated metadata names: source.json `generator`, brief.json `generation.generator` and each event's `generator` (V3's `generator` is one string, 1 to 96 characters).",
        default = "rules_pet-petpack_archive",
    ),
    "motions": attr.string_dict(
        doc = "Action -> the `motion` text of its state brief in the generated brief.json (required by the schema); an action left out reads \"The ACTION action, as authored.\".",
    ),
    "out": attr.string(
        doc = "The archive's path below the package's output directory, ending in `.petpack`; default `<pet_id>.petpack` (the contract's name). Two archives of one pet in one package (two tiers, say) need different `out`s; `petpack_set` derives it from the target name.",
    ),
    "pet_id": attr.string(
        doc = "The manifest `id` (`^pet_[a-z0-9]+$`); the output is `<pet_id>.petpack` unless `out` says otherwise.",
        mandatory = True,
    ),
    "prompt": attr.label(
        doc = "The non-empty UTF-8 text that becomes `source/prompt.md`.",
        allow_single_file = True,
        mandatory = True,
    ),
    "preview_only": attr.string(
        doc = "source.json and brief.json generation `preview_only`: `\"true\"`, `\"false\"` or empty to leave it out. `skill-full-source` requires `\"false\"`.",
        values = ["", "false", "true"],
    ),
    "provenance": attr.string(
        doc = "source.json `provenance` (and brief.json `generation.provenance`): a claim, such as `deterministic`, `external` or `skill-full-source`. `skill-full-source` also needs `visual_source` (`image-generation` or `user-reference-derived`) and `preview_only = \"false\"`, and makes the media gate's coverage and duplicate checks errors.",
        default = "external",
    ),
    "quality": attr.string(
        doc = "The tier: `low` (192x208), `standard` (384x416) or `high` (576x624).",
        mandatory = True,
        values = ["low", "standard", "high"],
    ),
    "references": attr.label_list(
        doc = "Reference files for `source/references/` (by base name), inventoried in the generated metadata.",
        allow_files = True,
    ),
    "session": attr.label(
        doc = "`source/skill_session.jsonl`; default: a `states.rendered` record (the nine actions, their timings and frame counts) and a `petpack.assembled` record (identity, quality, render size, reference count).",
        allow_single_file = [".jsonl"],
    ),
    "source": attr.label(
        doc = "`source/source.json` (`apc.pet-source.v1`); default: generated: `generator`, `provenance`, `created_at`, the manifest's id, name, style, quality, `states` and frame counts, `visual_source` and `preview_only` when given, and `reference_files` (the references' base names).",
        allow_single_file = [".json"],
    ),
    "style": attr.string(
        doc = "The manifest `style`: the non-blank visual style.",
        mandatory = True,
    ),
    "visual_source": attr.string(
        doc = "source.json `visual_source`; empty leaves it out.",
        values = ["", "image-generation", "user-reference-derived", "reference-image", "generated-vector", "deterministic-preview", "manual", "unknown"],
    ),
    "timing": attr.string_dict(
        doc = "Action -> `petpack_timing(...)`; an action left out keeps the contract's default timing (section 4), which fixes its frame count.",
    ),
}

_ATTRS.update({action: _frames_attr(action) for action in ACTIONS})

petpack_archive = rule(
    implementation = _petpack_archive_impl,
    doc = """Builds a `.petpack` V3 archive (the `PetpackArchive` action:
`petasset petpack assemble --spec <spec> --out <pet_id>.petpack`).

The action places every declared file at its package path, makes the previews
it is not given, writes `build/validation.json` from its own verdict, and
publishes the archive only after it validates; a package the contract rejects
fails the build with `PATH: RULE: message` lines. The archive depends only on
the inputs (stored entries, sorted, fixed times and modes), so it is the same
bytes on every machine and checkout path. Provides `PetpackInfo`.

Generated metadata follows the V3 schemas (`schemas/`). `build/validation.json`
records `validator` `rules_pet-petasset`, `validator_version`, `manifest_id`,
`frame_count`, `states` and `state_frame_counts`, and the verdict's warnings as
`FILE: RULE: message (at POINTER)` strings (the pointer without its leading slash, which the privacy check would read as an absolute path): section 5's timing warnings
(`frame_count_unusual`, `action_duration_long`, `frame_rate_unusual`) in
`timing_warnings`, every other warning in `warnings`; each list is left out
when empty.""",
    attrs = _ATTRS,
    provides = [PetpackInfo],
    toolchains = [PET_TOOLCHAIN_TYPE],
)
