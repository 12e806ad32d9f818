"""The public rules of rules_pet as macros that add the `rules_pet` tag (private).

Each macro has its rule's name and passes every attribute through; the rule
itself (in the file named) keeps its name, so `kind()` queries and
`native.existing_rules()` still say `pet_manifest`, `petpack_archive`, ...
The attributes and their docs are the rule's. `//rules:defs.bzl` exports
these, and the whole-pet macros call them.
"""

load(":desktop.bzl", _pet_desktop = "pet_desktop")
load(":manifest.bzl", _pet_manifest = "pet_manifest")
load(":motion_qa.bzl", _petpack_qa = "petpack_qa")
load(":pack.bzl", _pet_asset_pack = "pet_asset_pack")
load(":petpack.bzl", _petpack_archive = "petpack_archive")
load(":petpack_import.bzl", _petpack_import = "petpack_import")
load(":petpack_player.bzl", _petpack_player = "petpack_player")
load(":runtime_assets.bzl", _pet_runtime_assets = "pet_runtime_assets", _pet_runtime_assets_test = "pet_runtime_assets_test")
load(":tags.bzl", "with_tag")

def pet_manifest(name, **kwargs):
    """The `pet_manifest` rule (rules/private/manifest.bzl) with the `rules_pet` tag added.

    Args:
      name: the target's name.
      **kwargs: the rule's attributes (`images`, `manifest`) and the common ones
        (`tags`, kept and extended, `visibility`, `testonly`, ...).
    """
    _pet_manifest(name = name, **with_tag(kwargs))

def pet_runtime_assets(name, **kwargs):
    """The `pet_runtime_assets` rule (rules/private/runtime_assets.bzl) with the `rules_pet` tag added.

    Args:
      name: the target's name.
      **kwargs: the rule's attributes (`manifest`, `prefix`) and the common ones
        (`tags`, kept and extended, `visibility`, `testonly`, ...).
    """
    _pet_runtime_assets(name = name, **with_tag(kwargs))

def pet_runtime_assets_test(name, **kwargs):
    """The `pet_runtime_assets_test` rule (rules/private/runtime_assets.bzl) with the `rules_pet` tag added.

    Args:
      name: the target's name.
      **kwargs: the rule's attributes (`assets`) and the common ones
        (`tags`, kept and extended, `visibility`, `testonly`, ...).
    """
    _pet_runtime_assets_test(name = name, **with_tag(kwargs))

def pet_asset_pack(name, **kwargs):
    """The `pet_asset_pack` rule (rules/private/pack.bzl) with the `rules_pet` tag added.

    Args:
      name: the target's name.
      **kwargs: the rule's attributes (`manifest`, `out`) and the common ones
        (`tags`, kept and extended, `visibility`, `testonly`, ...).
    """
    _pet_asset_pack(name = name, **with_tag(kwargs))

def petpack_archive(name, **kwargs):
    """The `petpack_archive` rule (rules/private/petpack.bzl) with the `rules_pet` tag added.

    Args:
      name: the target's name.
      **kwargs: the rule's attributes (`pet_id`, `quality`, the frames of each action, `timing`, ...) and the common ones
        (`tags`, kept and extended, `visibility`, `testonly`, ...).
    """
    _petpack_archive(name = name, **with_tag(kwargs))

def petpack_import(name, **kwargs):
    """The `petpack_import` rule (rules/private/petpack_import.bzl) with the `rules_pet` tag added.

    Args:
      name: the target's name.
      **kwargs: the rule's attributes (`src`, `pet_id`, `quality`) and the common ones
        (`tags`, kept and extended, `visibility`, `testonly`, ...).
    """
    _petpack_import(name = name, **with_tag(kwargs))

def petpack_qa(name, **kwargs):
    """The `petpack_qa` rule (rules/private/motion_qa.bzl) with the `rules_pet` tag added.

    Args:
      name: the target's name.
      **kwargs: the rule's attributes (`archive`, `baseline`, `states`) and the common ones
        (`tags`, kept and extended, `visibility`, `testonly`, ...).
    """
    _petpack_qa(name = name, **with_tag(kwargs))

def petpack_player(name, **kwargs):
    """The `petpack_player` rule (rules/private/petpack_player.bzl) with the `rules_pet` tag added.

    Args:
      name: the target's name.
      **kwargs: the rule's attributes (`archive`) and the common ones
        (`tags`, kept and extended, `visibility`, `testonly`, ...).
    """
    _petpack_player(name = name, **with_tag(kwargs))

def pet_desktop(name, **kwargs):
    """The `pet_desktop` rule (rules/private/desktop.bzl) with the `rules_pet` tag added.

    Args:
      name: the target's name.
      **kwargs: the rule's attributes (`pack`, `runtime_assets`, `archive`,
        `role`, `scale`, `managed`) and the common ones (`tags`, kept and
        extended, `visibility`, `testonly`, ...).
    """
    _pet_desktop(name = name, **with_tag(kwargs))
