"""The `rules_pet` tag every target of the ruleset carries (private to rules_pet).

No loads: `//rules:toolchain.bzl` uses it too, and everything else loads that.
"""

# `bazel query 'attr(tags, rules_pet, //...)'` finds every target a rule or
# macro of rules_pet created; tests/rules/tags_query.sh holds that true.
TAG = "rules_pet"

def tagged(tags):
    """Returns `tags` with the `rules_pet` tag added once, the user's first.

    Args:
      tags: a list of tags or None.

    Returns:
      A new list.
    """
    tags = list(tags or [])
    if TAG not in tags:
        tags.append(TAG)
    return tags

def with_tag(kwargs):
    """Returns a rule's keyword arguments with `rules_pet` added to `tags`.

    Args:
      kwargs: the attributes a macro was called with.

    Returns:
      A new dict; every other attribute, `manual` and `exclusive` among the
      tags included, passes through unchanged.
    """
    return dict(kwargs, tags = tagged(kwargs.get("tags")))
