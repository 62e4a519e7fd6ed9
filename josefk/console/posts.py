"""A POSTed action form: which action its path names, its fields read and checked, and the page
that shows the result (or shows the form again when the cluster refuses)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from josefk.console.actions import AclSpec, KafkaActions
from josefk.console.cluster import NotFound
from josefk.console.pages import group_href, topic_href


class BadForm(ValueError):
    """A field the action cannot use (shown on the form's page, HTTP 400)."""


@dataclass(frozen=True)
class Posted:
    page: str
    notice: str


def form_page(parts: list[str]) -> str:
    """The page holding the form that POSTs to `parts`."""
    match parts:
        case ["topics", name, "produce"]:
            return topic_href(name, "/messages")
        case ["topics", name, _]:
            return topic_href(name)
        case ["groups", group_id, _]:
            return group_href(group_id)
        case ["acls", _]:
            return "/acls"
    return "/topics"


def post_action(actions: KafkaActions, parts: list[str], form: dict[str, str]) -> Posted:
    match parts:
        case ["topics", "create"]:
            name = form.get("name", "").strip()
            actions.create_topic(name, _whole(form, "partitions"), _whole(form, "replication_factor"),
                                 _pairs(form.get("configs", ""), "configs"))
            return Posted(topic_href(name), f"Created topic '{name}'.")
        case ["topics", name, "delete"]:
            if form.get("confirm", "").strip() != name:
                raise BadForm(f"Type the topic's name, {name}, to delete it")
            actions.delete_topic(name)
            return Posted("/topics", f"Deleted topic '{name}'.")
        case ["topics", name, "configs"]:
            config = form.get("config", "").strip()
            if not config:
                raise BadForm("Name the config to change")
            delete = form.get("op") == "delete"
            actions.alter_topic_config(name, config, None if delete else form.get("value", ""))
            what = f"Deleted {config} (back to its default)" if delete else f"Set {config}={form.get('value', '')}"
            return Posted(topic_href(name), f"{what} on topic '{name}'.")
        case ["topics", name, "produce"]:
            raw = form.get("partition", "").strip()
            key = form.get("key", "")
            done = actions.produce(name, _whole(form, "partition") if raw else None, key.encode() if key else None,
                                   form.get("value", "").encode(),
                                   [(k, v.encode()) for k, v in _pairs(form.get("headers", ""), "headers").items()])
            query = urlencode({"partition": done.partition, "offset": done.offset})
            return Posted(topic_href(name, f"/messages?{query}"),
                          f"Produced a record to {name}-{done.partition} at offset {done.offset}.")
        case ["groups", group_id, "reset"]:
            mode = form.get("mode", "")
            value = _whole(form, "value") if form.get("value", "").strip() else None
            target = actions.reset_offsets(group_id, form.get("topic", "").strip() or None, mode, value)
            shown = ", ".join(f"{tp.topic}-{tp.partition}: {o}" for tp, o in sorted(target.items()))
            return Posted(group_href(group_id), f"Reset the offsets of group '{group_id}' to {mode}: {shown}.")
        case ["acls", "create"]:
            spec = _acl(form)
            actions.create_acl(spec)
            return Posted("/acls", f"Added {_acl_text(spec)}.")
        case ["acls", "delete"]:
            spec = _acl(form)
            deleted = actions.delete_acl(spec)
            return Posted("/acls", f"Deleted {_acl_text(spec)}." if deleted else f"No such ACL: {_acl_text(spec)}.")
    raise NotFound("No such action")


def _acl(form: dict[str, str]) -> AclSpec:
    return AclSpec(*(form.get(f, "").strip() for f in ("principal", "host", "operation", "permission",
                                                        "resource_type", "resource_name", "pattern_type")))


def _acl_text(spec: AclSpec) -> str:
    """kafka-acls' words for an ACL."""
    return (f"(principal={spec.principal}, host={spec.host or '*'}, operation={spec.operation}, "
            f"permissionType={spec.permission}) on ResourcePattern(resourceType={spec.resource_type}, "
            f"name={spec.resource_name}, patternType={spec.pattern_type})")


def _whole(form: dict[str, str], name: str) -> int:
    raw = form.get(name, "").strip()
    try:
        return int(raw)
    except ValueError:
        raise BadForm(f"{name.replace('_', ' ')} must be a whole number, not {raw!r}") from None


def _pairs(text: str, what: str) -> dict[str, str]:
    """`name=value` lines (blank lines skipped) in the order typed."""
    pairs: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        name, sep, value = line.partition("=")
        if not sep or not name.strip():
            raise BadForm(f"{what}: expected name=value, not {line.strip()!r}")
        pairs[name.strip()] = value.strip()
    return pairs
