"""pet_asset_pack_cc_library: a pack as an aligned C array in a cc_library."""

load("@rules_cc//cc:defs.bzl", "cc_library")
load("//rules:providers.bzl", "PetAssetPackInfo")
load("//rules:toolchain.bzl", "PET_TOOLCHAIN_TYPE")
load(":common.bzl", "c_identifier", "petasset_tool")
load(":tags.bzl", "with_tag")

def _pet_pack_cc_source_impl(ctx):
    pack = ctx.attr.pack[PetAssetPackInfo].pack
    symbol = ctx.attr.symbol
    if c_identifier(symbol) != symbol:
        fail("%s: symbol %r is not a C identifier" % (ctx.label, symbol))
    args = ctx.actions.args()
    args.add_all(["pack", "cc", "--pack", pack, "--symbol", symbol])
    args.add_all(["--header", ctx.outputs.header, "--source", ctx.outputs.source])

    # The source sits next to the header, so a bare quoted include finds it
    # whatever the package or repository.
    args.add("--include", ctx.outputs.header.basename)
    ctx.actions.run(
        executable = petasset_tool(ctx).petasset,
        arguments = [args],
        inputs = [pack],
        outputs = [ctx.outputs.header, ctx.outputs.source],
        mnemonic = "PetPackCc",
        progress_message = "Writing C array %s for %s" % (symbol, pack.short_path),
    )
    return [DefaultInfo(files = depset([ctx.outputs.header, ctx.outputs.source]))]

pet_asset_pack_cc_source = rule(
    implementation = _pet_pack_cc_source_impl,
    doc = """Writes a pack as C99 source (`petasset pack cc`, action `PetPackCc`).

The header declares `extern const uint8_t SYMBOL[];`, `extern const uint32_t
SYMBOL_len;` and `#define SYMBOL_LEN <bytes>`; the source defines the array,
4-byte aligned. Used by `pet_asset_pack_cc_library`.""",
    attrs = {
        "header": attr.output(
            doc = "The header to write, e.g. `pet_pack_cc.h`.",
            mandatory = True,
        ),
        "pack": attr.label(
            doc = "A `pet_asset_pack` target.",
            mandatory = True,
            providers = [PetAssetPackInfo],
        ),
        "source": attr.output(
            doc = "The C source to write, e.g. `pet_pack_cc.c`.",
            mandatory = True,
        ),
        "symbol": attr.string(
            doc = "The C name of the array.",
            mandatory = True,
        ),
    },
    toolchains = [PET_TOOLCHAIN_TYPE],
)

def pet_asset_pack_cc_library(name, pack, symbol = None, **kwargs):
    """A `cc_library` holding a pack as a 4-byte-aligned `const uint8_t` array.

    Firmware code depends on `:<name>` like on any library and includes the
    generated header by its path in the repository,
    `#include "<package>/<name>.h"`:

        extern const uint8_t SYMBOL[];       /* the pack, 4-byte aligned */
        extern const uint32_t SYMBOL_len;    /* its length in bytes */
        #define SYMBOL_LEN <length>

    Creates `<name>_src` (the `pet_asset_pack_cc_source` generator writing
    `<name>.h` and `<name>.c`) and `<name>` (the `cc_library`).

    Args:
      name: the `cc_library`'s name; also the header's and source's base name.
      pack: a `pet_asset_pack` target.
      symbol: the C name of the array; default: `name` as a C identifier.
      **kwargs: passed to `cc_library` (`visibility`, `tags`,
        `include_prefix`, `strip_include_prefix`, `deps`, ...); `tags` also
        go to the generator.
    """
    kwargs = with_tag(kwargs)
    pet_asset_pack_cc_source(
        name = name + "_src",
        pack = pack,
        symbol = symbol or c_identifier(name),
        header = name + ".h",
        source = name + ".c",
        tags = kwargs.get("tags"),
        visibility = kwargs.get("visibility"),
    )
    cc_library(
        name = name,
        hdrs = [name + ".h"],
        srcs = [name + ".c"],
        **kwargs
    )
