"""The ``data`` of INTERACTION_CREATE events, checked the way Discord's own client checks input.

Discord only lets a user run a synced command, with options of the declared types, within
``choices``/``min_value``/``max_value``, and submit a modal with its required fields filled.
Anything else raises ``InteractionRefused``, because a real user could not send it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .payloads import JSON
from .records import FakeGuild
from .world import World

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
TEXT_INPUT, LABEL, ACTION_ROW = 4, 18, 1


class InteractionRefused(ValueError):
    """Discord would not let a user send this interaction."""


def find_command(world: World, name: str, guild_id: int | None) -> JSON:
    """The synced command ``name`` visible in the guild (its guild commands, then global)."""
    candidates = [*world.commands.get(guild_id, []), *world.commands.get(None, [])] \
        if guild_id is not None else world.commands.get(None, [])
    for command in candidates:
        if command["name"] == name and command.get("type", 1) == 1:
            return command
    synced = sorted({c["name"] for cs in world.commands.values() for c in cs})
    raise InteractionRefused(f"no slash command /{name} is synced here; synced: {synced}")


def check_can_use(command: JSON, guild: FakeGuild | None, user_id: int) -> None:
    """Discord hides a command from members lacking its ``default_member_permissions``."""
    required = command.get("default_member_permissions")
    if guild is None or required is None:
        return
    if guild.permissions_of(user_id) & int(required) != int(required):
        raise InteractionRefused(f"user {user_id} lacks the permissions /{command['name']} needs")


def slash_data(world: World, command: JSON, path: list[str], values: Mapping[str, Any]) -> JSON:
    """CHAT_INPUT data for ``/command sub ... name=value``, with ``resolved`` for users etc."""
    resolved: dict[str, dict[str, JSON]] = {}
    data: JSON = {"id": command["id"], "name": command["name"], "type": 1}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    container, definitions = data, command.get("options", [])
    for word in path:
        sub = next((option for option in definitions
                    if option["name"] == word and option["type"] in (SUB_COMMAND,
                                                                     SUB_COMMAND_GROUP)), None)
        if sub is None:
            raise InteractionRefused(f"/{command['name']} has no subcommand {word!r}")
        nested: JSON = {"name": word, "type": sub["type"], "options": []}
        container.setdefault("options", []).append(nested)
        container, definitions = nested, sub.get("options", [])
    if any(option["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for option in definitions):
        raise InteractionRefused(f"/{command['name']} {' '.join(path)} needs a subcommand")
    container["options"] = _options(world, definitions, values, resolved)
    if resolved:
        data["resolved"] = resolved
    return data


def _options(
    world: World, definitions: list[JSON], values: Mapping[str, Any],
    resolved: dict[str, dict[str, JSON]],
) -> list[JSON]:
    by_name = {definition["name"]: definition for definition in definitions}
    unknown = set(values) - set(by_name)
    if unknown:
        raise InteractionRefused(f"unknown options {sorted(unknown)}; known: {sorted(by_name)}")
    options = []
    for name, definition in by_name.items():
        if name not in values:
            if definition.get("required"):
                raise InteractionRefused(f"option {name!r} is required")
            continue
        value = _checked_value(definition, values[name])
        options.append({"name": name, "type": definition["type"], "value": value})
        _resolve(world, definition["type"], value, resolved)
    return options


def _checked_value(definition: JSON, value: Any) -> Any:
    kind, name = definition["type"], definition["name"]
    accepted: dict[int, tuple[type, ...]] = {
        STRING: (str,), INTEGER: (int,), BOOLEAN: (bool,), NUMBER: (int, float),
        USER: (int,), CHANNEL: (int,), ROLE: (int,), MENTIONABLE: (int,),
    }
    if kind not in accepted:
        raise InteractionRefused(f"option {name!r} has type {kind}, which the fake does not send")
    if not isinstance(value, accepted[kind]) or (kind != BOOLEAN and isinstance(value, bool)):
        raise InteractionRefused(f"option {name!r} takes {accepted[kind][0].__name__}, "
                                 f"not {value!r}")
    choices = definition.get("choices")
    if choices and value not in [choice["value"] for choice in choices]:
        raise InteractionRefused(f"{value!r} is not a choice of option {name!r}")
    if "min_value" in definition and value < definition["min_value"]:
        raise InteractionRefused(f"option {name!r} must be at least {definition['min_value']}")
    if "max_value" in definition and value > definition["max_value"]:
        raise InteractionRefused(f"option {name!r} must be at most {definition['max_value']}")
    if kind in (USER, CHANNEL, ROLE, MENTIONABLE):
        return str(value)
    return value


def _resolve(world: World, kind: int, value: Any, resolved: dict[str, dict[str, JSON]]) -> None:
    if kind in (USER, MENTIONABLE):
        user_id = int(value)
        if user_id not in world.users:
            raise InteractionRefused(f"user {user_id} does not exist")
        resolved.setdefault("users", {})[value] = world.user_json(user_id)
        for guild in world.guilds.values():
            if user_id in guild.members:
                member = world.member_json(guild, user_id, with_permissions=True)
                del member["user"]
                resolved.setdefault("members", {})[value] = member
                break
    elif kind == CHANNEL:
        channel = world.channels.get(int(value))
        if channel is None:
            raise InteractionRefused(f"channel {value} does not exist")
        resolved.setdefault("channels", {})[value] = {
            **world.channel_json(channel), "permissions": str((1 << 53) - 1)}


def modal_submit_data(modal: JSON, values: Mapping[str, str]) -> JSON:
    """MODAL_SUBMIT data answering ``modal`` (as the bot sent it) with the typed ``values``."""
    submitted: list[JSON] = []
    used: set[str] = set()
    for row in modal.get("components", []):
        if row["type"] == ACTION_ROW:
            inner = row["components"][0]
            submitted.append({"type": ACTION_ROW, "components": [_field(inner, values, used)]})
        elif row["type"] == LABEL:
            submitted.append({"type": LABEL, "component": _field(row["component"], values, used)})
    unknown = set(values) - used
    if unknown:
        raise InteractionRefused(f"modal {modal['custom_id']!r} has no fields {sorted(unknown)}")
    return {"custom_id": modal["custom_id"], "components": submitted}


def _field(component: JSON, values: Mapping[str, str], used: set[str]) -> JSON:
    custom_id = component["custom_id"]
    if component["type"] != TEXT_INPUT:
        raise InteractionRefused(f"modal field {custom_id!r} is not a text input")
    value = values.get(custom_id, component.get("value") or "")
    used.add(custom_id)
    if component.get("required", True) and not value:
        raise InteractionRefused(f"modal field {custom_id!r} is required")
    if len(value) > component.get("max_length", 4000):
        raise InteractionRefused(f"modal field {custom_id!r} is too long")
    return {"type": TEXT_INPUT, "custom_id": custom_id, "value": value}
