"""go_wasm_exec: the wasm_exec.js of the Go SDK that rules_go builds with."""

def _go_wasm_exec_impl(ctx):
    # The SDK comes from the Go toolchain, not a repository name: under Bzlmod
    # only the root module may name its SDK (go_sdk.download(name = ...)),
    # and rules_pet is usually not the root.
    sdk = ctx.toolchains["@io_bazel_rules_go//go:toolchain"].sdk
    out = ctx.actions.declare_file(ctx.label.name + ".js")

    # No SDK repository exports misc/ or lib/ on every rules_go version, so
    # the SDK's go names its GOROOT (lib/wasm from Go 1.24 on, misc/wasm before).
    ctx.actions.run_shell(
        inputs = [sdk.go, sdk.root_file],
        outputs = [out],
        arguments = [sdk.go.path, out.path],
        command = """
root=$("$1" env GOROOT)
for f in "$root/lib/wasm/wasm_exec.js" "$root/misc/wasm/wasm_exec.js"; do
    if [ -f "$f" ]; then cp "$f" "$2"; exit 0; fi
done
echo "no wasm_exec.js under $root" >&2
exit 1
""",
        mnemonic = "GoWasmExec",
        progress_message = "Copying the Go SDK's wasm_exec.js to %s" % out.short_path,
    )
    return [DefaultInfo(files = depset([out]))]

go_wasm_exec = rule(
    implementation = _go_wasm_exec_impl,
    doc = "Copies the wasm_exec.js of the Go toolchain's SDK to NAME.js, the JavaScript half of what that Go compiles for js/wasm.",
    toolchains = ["@io_bazel_rules_go//go:toolchain"],
)
