"""The action forms the console adds to its pages for a logged-in user.

Every form POSTs to the page's own path plus the action's name and carries the user's CSRF token;
`values` refills what the user typed when the cluster refused it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from josefk.console.actions import (
    ACL_OPERATIONS,
    ACL_PATTERN_TYPES,
    ACL_PERMISSIONS,
    ACL_RESOURCE_TYPES,
    RESET_MODES,
)
from josefk.console.pages import ACL_FIELDS, EMPTY, Html, esc, group_href, join, tag, topic_href


@dataclass(frozen=True)
class Session:
    """Who is looking, the token their forms carry, and what the last action said."""

    user: str
    csrf: str
    notice: str | None = None
    error: str | None = None
    values: dict[str, str] = field(default_factory=dict)

    def banner(self) -> Html:
        parts = [tag("p", join(["Logged in as ", tag("b", self.user)]), cls="sub user")]
        if self.notice:
            parts.append(tag("p", self.notice, cls="notice", id="notice"))
        if self.error:
            parts.append(tag("p", self.error, cls="error", id="action-error"))
        return join(parts)


def _input(session: Session, name: str, label: str, kind: str = "text", default: Any = "", **attrs: Any) -> Html:
    value = session.values.get(name, default)
    return tag("label", join([label, " ", Html(tag("input", "", name=name, type=kind, value=value, **attrs)
                                                .removesuffix("</input>"))]))


def _textarea(session: Session, name: str, label: str, placeholder: str) -> Html:
    return tag("label", join([label, " ", tag("textarea", session.values.get(name, ""), name=name, rows=3,
                                              placeholder=placeholder)]), cls="wide")


def _select(session: Session, name: str, label: str, options: Sequence[tuple[str, str]]) -> Html:
    chosen = session.values.get(name)
    rendered = join(tag("option", text, value=value, selected="selected" if value == chosen else None)
                    for value, text in options)
    return tag("label", join([label, " ", tag("select", rendered, name=name)]))


def _form(session: Session, form_id: str, action: str, title: str, fields: Sequence[Html], button: str,
          danger: bool = False) -> Html:
    hidden = Html(f'<input type="hidden" name="csrf" value="{esc(session.csrf)}">')
    submit = tag("button", button, type="submit", cls="danger" if danger else None)
    return tag("section", join([tag("h2", title), tag("form", join([hidden, *fields, submit]), method="post",
                                                         action=action, id=form_id, cls="controls action")]))


def create_topic(session: Session) -> Html:
    return _form(session, "create-topic", "/topics/create", "Create a topic", [
        _input(session, "name", "Name", required="required"),
        _input(session, "partitions", "Partitions", "number", 1, min=1),
        _input(session, "replication_factor", "Replication factor", "number", 1, min=1),
        _textarea(session, "configs", "Configs", "one name=value a line, e.g. retention.ms=86400000"),
    ], "Create topic")


def topic_actions(session: Session, name: str) -> Html:
    configs = _form(session, "alter-config", topic_href(name, "/configs"), "Edit a config", [
        _input(session, "config", "Name", required="required", placeholder="retention.ms"),
        _input(session, "value", "Value"),
        _select(session, "op", "Operation", [("set", "Set"), ("delete", "Delete (back to the default)")]),
    ], "Apply")
    delete = _form(session, "delete-topic", topic_href(name, "/delete"), "Delete this topic", [
        _input(session, "confirm", "Type the topic's name to confirm", required="required"),
    ], "Delete topic", danger=True)
    return join([configs, delete])


def produce(session: Session, topic: str, partitions: Sequence[int]) -> Html:
    return _form(session, "produce", topic_href(topic, "/produce"), "Produce a record", [
        _select(session, "partition", "Partition", [("", "any (the producer's partitioner)"),
                                                    *((str(p), str(p)) for p in partitions)]),
        _input(session, "key", "Key", placeholder="none"),
        _textarea(session, "value", "Value", "the record's value (UTF-8)"),
        _textarea(session, "headers", "Headers", "one name=value a line"),
    ], "Produce")


def reset_offsets(session: Session, group_id: str, topics: Sequence[str]) -> Html:
    return _form(session, "reset-offsets", f"{group_href(group_id)}/reset", "Reset offsets", [
        _select(session, "topic", "Topic", [("", "every committed partition"), *((t, t) for t in topics)]),
        _select(session, "mode", "To", [(m, m) for m in RESET_MODES]),
        _input(session, "value", "Timestamp (ms) or offset", "number"),
    ], "Reset offsets", danger=True)


def create_acl(session: Session) -> Html:
    return _form(session, "create-acl", "/acls/create", "Add an ACL", [
        _input(session, "principal", "Principal", required="required", placeholder="User:alice"),
        _input(session, "host", "Host", default="*"),
        _select(session, "operation", "Operation", [(o, o) for o in ACL_OPERATIONS]),
        _select(session, "permission", "Permission", [(p, p) for p in ACL_PERMISSIONS]),
        _select(session, "resource_type", "Resource type", [(t, t) for t in ACL_RESOURCE_TYPES]),
        _input(session, "resource_name", "Resource name", required="required", placeholder="orders, or *"),
        _select(session, "pattern_type", "Pattern type", [(p, p) for p in ACL_PATTERN_TYPES]),
    ], "Add ACL")


def delete_acl(session: Session, index: int, acl: dict[str, Any]) -> Html:
    """A one-button form deleting exactly this ACL."""
    hidden = join(Html(f'<input type="hidden" name="{f}" value="{esc(acl[f])}">') for f in ACL_FIELDS)
    token = Html(f'<input type="hidden" name="csrf" value="{esc(session.csrf)}">')
    return tag("form", join([token, hidden, tag("button", "Delete", type="submit", cls="danger")]), method="post",
               action="/acls/delete", id=f"delete-acl-{index}", cls="inline")


def banner(session: Session | None) -> Html:
    return session.banner() if session is not None else EMPTY
