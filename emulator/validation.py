"""Discord's payload limits, checked the way Discord does (400, code 50035 Invalid Form Body)."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from .model import EPHEMERAL, IS_COMPONENTS_V2, walk_components

BUTTON_STYLES = {1, 2, 3, 4, 5, 6}
#: Discord's locales (https://discord.com/developers/docs/reference#locales): a command's
#: ``name_localizations`` / ``description_localizations`` keys must be one of them ("fr",
#: not "fr-FR")
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
#: the flags a bot may set on a channel message (Create Message: SUPPRESS_EMBEDS,
#: SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, IS_COMPONENTS_V2); EPHEMERAL is for
#: interaction responses only
CHANNEL_MESSAGE_FLAGS = (1 << 2) | (1 << 12) | (1 << 13) | IS_COMPONENTS_V2
#: the flags an interaction's response message may carry (receiving-and-responding.mdx,
#: "Messages": "only SUPPRESS_EMBEDS, EPHEMERAL, IS_COMPONENTS_V2, IS_VOICE_MESSAGE, and
#: SUPPRESS_NOTIFICATIONS can be set")
RESPONSE_MESSAGE_FLAGS = CHANNEL_MESSAGE_FLAGS | EPHEMERAL
SELECT_TYPES = {3, 5, 6, 7, 8}
#: message.mdx "Allowed Mention Types"; ``users`` and ``roles`` hold at most 100 ids
MENTION_TYPES = ("users", "roles", "everyone")
MAX_MENTION_IDS = 100
#: a message carries at most 10 attachments: the ``attachments`` field's ``maxItems`` in
#: discord-api-spec (MessageCreateRequest, MessageEditRequestPartial, the webhook and
#: callback requests), JSON error 30015 past it ("Maximum number of attachments in a
#: message reached (10)", opcodes-and-status-codes.mdx)
MAX_ATTACHMENTS = 10
#: application-commands.mdx, "Slash Commands": "a maximum of 8000 characters for combined
#: name, description, and value properties for each command, its options (including
#: subcommands and groups), and choices ... only the longest localization for each field
#: (including the default value) is counted"
MAX_COMMAND_SIZE = 8000
INTEGER_OPTION, STRING_OPTION, NUMBER_OPTION = 4, 3, 10

# Components V2 (components/reference.mdx, "Component Reference"; discord-api-spec's
# MessageCreateRequest and the ``*ComponentForMessageRequest`` schemas)
#: "Messages allow up to 40 total components" (with IS_COMPONENTS_V2), nested ones counted
MAX_V2_COMPONENTS = 40
#: the characters of every text display of a message together (and of one: spec 1-4000)
MAX_TEXT_DISPLAY = 4000
#: Container "accent_color": "RGB from 0x000000 to 0xFFFFFF"
MAX_ACCENT_COLOR = 0xFFFFFF
#: spec UnfurledMediaRequest: url maxLength 2048
MAX_MEDIA_URL = 2048
ATTACHMENT_SCHEME = "attachment://"
#: what a V2 message holds at its top level (spec MessageCreateRequest.components)
V2_TOP_TYPES = (1, 9, 10, 12, 13, 14, 17)
#: Container Child Components: Action Row, Text Display, Section, Media Gallery,
#: Separator, File (a thumbnail only as a section's accessory, no container in a container)
CONTAINER_CHILD_TYPES = (1, 9, 10, 12, 13, 14)
#: Section Child Components: Text Display; Section Accessory Components: Button, Thumbnail
SECTION_CHILD_TYPES = (10,)
ACCESSORY_TYPES = (2, 11)
#: Action Row Child Components: buttons, or one select of any kind
ROW_CHILD_TYPES = (2, 3, 5, 6, 7, 8)
#: the fields a V2 message cannot carry: message.mdx, Create Message: "When the flag
#: IS_COMPONENTS_V2 is set, the message can only contain components. Providing content,
#: embeds, sticker_ids, poll ... will fail with a 400 BAD REQUEST response."
LEGACY_FIELDS = ("content", "embeds", "sticker_ids", "poll")


class FormErrors:
    """Collects errors into Discord's nested ``errors`` object."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}
        self.flat: list[str] = []

    def add(self, path: list[str | int], code: str, message: str) -> None:
        node = self.errors
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        self.flat.append(f"{'.'.join(str(p) for p in path)}: {message}")

    def max_len(self, path: list[str | int], value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def bad_length(self, path: list[str | int], value: Any, low: int, high: int) -> None:
        if value is None:
            self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        elif not isinstance(value, str) or not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def object(self, path: list[str | int], value: Any) -> bool:
        """A field that is an object (an emoji, allowed_mentions): Discord answers
        MODEL_TYPE_CONVERT when it is anything else (a string)."""
        if value is None or isinstance(value, dict):
            return True
        self.add(path, "MODEL_TYPE_CONVERT", "Expected an object/dictionary.")
        return False

    def nested(self, key: str) -> FormErrors:
        """The same errors under ``key``: a callback's message is its ``data``."""
        out = FormErrors()
        out.errors = {key: self.errors} if self.errors else {}
        out.flat = [f"{key}.{line}" for line in self.flat]
        return out

    def __bool__(self) -> bool:
        return bool(self.errors)

    def body(self) -> dict[str, Any]:
        return {"code": 50035, "errors": self.errors, "message": "Invalid Form Body"}


def _embed_chars(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for fld in embed.get("fields") or []:
        total += len(fld.get("name") or "") + len(fld.get("value") or "")
    return total


def check_embeds(err: FormErrors, embeds: Any) -> None:
    if not isinstance(embeds, list):
        return
    if len(embeds) > 10:
        err.add(["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        path: list[str | int] = ["embeds", i]
        err.max_len([*path, "title"], embed.get("title"), 256)
        err.max_len([*path, "description"], embed.get("description"), 4096)
        err.max_len([*path, "footer", "text"], (embed.get("footer") or {}).get("text"), 2048)
        err.max_len([*path, "author", "name"], (embed.get("author") or {}).get("name"), 256)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            err.add([*path, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, fld in enumerate(fields):
            if not fld.get("name"):
                err.add(
                    [*path, "fields", j, "name"], "BASE_TYPE_REQUIRED", "This field is required"
                )
            if not fld.get("value"):
                err.add(
                    [*path, "fields", j, "value"], "BASE_TYPE_REQUIRED", "This field is required"
                )
            err.max_len([*path, "fields", j, "name"], fld.get("name"), 256)
            err.max_len([*path, "fields", j, "value"], fld.get("value"), 1024)
        total += _embed_chars(embed)
    if total > 6000:
        err.add(["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def _check_interactive(err: FormErrors, path: list[str | int], comp: dict[str, Any]) -> None:
    ctype = comp.get("type")
    if ctype == 2:
        style = comp.get("style")
        if style not in BUTTON_STYLES:
            err.add([*path, "style"], "BASE_TYPE_CHOICES", f"Value must be one of {BUTTON_STYLES}.")
        err.max_len([*path, "label"], comp.get("label"), 80)
        if style == 5:
            if not comp.get("url"):
                err.add([*path, "url"], "BASE_TYPE_REQUIRED", "This field is required")
            if comp.get("custom_id"):
                err.add(
                    [*path, "custom_id"],
                    "COMPONENT_LINK_BUTTON_CUSTOM_ID",
                    "A link button cannot have a custom_id",
                )
        elif style != 6 and not comp.get("custom_id"):
            err.add([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
        if style != 5 and comp.get("url"):
            # components reference, Button: "Non-link and non-premium buttons ... cannot
            # have a url"; premium buttons cannot either
            err.add([*path, "url"], "COMPONENT_BUTTON_URL_NOT_LINK", "Only a link button has a url")
        # its emoji is a partial emoji object ({"name": "🂡"}), never the bare string
        err.object([*path, "emoji"], comp.get("emoji"))
        if not comp.get("label") and not comp.get("emoji"):
            err.add([*path], "COMPONENT_BUTTON_EMPTY", "A button needs a label or an emoji")
    elif ctype in SELECT_TYPES:
        if not comp.get("custom_id"):
            err.add([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
        err.max_len([*path, "placeholder"], comp.get("placeholder"), 150)
        options = comp.get("options") or []
        if ctype == 3:
            if not 1 <= len(options) <= 25:
                err.add(
                    [*path, "options"],
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 25 in length.",
                )
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                err.add(
                    [*path, "options"],
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select option values must be unique",
                )
            for k, opt in enumerate(options):
                # discord-api-spec StringSelectOptionForRequest: label and value are
                # required, minLength 1, maxLength 100 (an empty label is refused)
                err.bad_length([*path, "options", k, "label"], opt.get("label"), 1, 100)
                err.bad_length([*path, "options", k, "value"], opt.get("value"), 1, 100)
                err.max_len([*path, "options", k, "description"], opt.get("description"), 100)
                err.object([*path, "options", k, "emoji"], opt.get("emoji"))
        min_v = int(comp.get("min_values", 1))
        max_v = int(comp.get("max_values", 1))
        if not 0 <= min_v <= 25 or not 1 <= max_v <= 25 or min_v > max_v:
            err.add([*path, "max_values"], "BASE_TYPE_BAD_VALUE", "Invalid min_values/max_values")
        if ctype == 3 and max_v > len(options) and options:
            err.add([*path, "max_values"], "BASE_TYPE_MAX", f"Must be {len(options)} or fewer.")
        defaults = sum(1 for o in options if o.get("default"))
        if ctype == 3 and defaults > max_v:  # Discord refuses more defaults than picks
            err.add(
                [*path, "options"],
                "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                f"The number of default options must be {max_v} or fewer.",
            )
    elif ctype == 4:
        err.max_len([*path, "label"], comp.get("label"), 45)
        err.max_len([*path, "placeholder"], comp.get("placeholder"), 100)
        err.max_len([*path, "value"], comp.get("value"), 4000)
    cid = comp.get("custom_id")
    if cid is not None and (not isinstance(cid, str) or not 1 <= len(cid) <= 100):
        err.add(
            [*path, "custom_id"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )


def _type_choices(
    err: FormErrors, path: list[str | int], ctype: Any, allowed: tuple[int, ...]
) -> bool:
    """A component whose type is not allowed where it stands: Discord's UNION_TYPE_CHOICES
    ('Value of field "type" must be one of (1,).' for a top-level component of a message
    without IS_COMPONENTS_V2, as Discord answers it: Discord.Net#3132)."""
    if ctype in allowed:
        return True
    shown = ", ".join(str(t) for t in allowed) + ("," if len(allowed) == 1 else "")
    err.add(
        [*path, "type"], "UNION_TYPE_CHOICES", f'Value of field "type" must be one of ({shown}).'
    )
    return False


def _check_row(err: FormErrors, path: list[str | int], row: dict[str, Any]) -> None:
    """An action row (components/reference.mdx, Action Row): "up to 5 contextually grouped
    buttons" or "a single select component", nothing else (no row in a row, no text)."""
    children = row.get("components") or []
    if not isinstance(children, list) or not 1 <= len(children) <= 5:
        err.add([*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        children = children if isinstance(children, list) else []
    kinds = {c.get("type") for c in children if isinstance(c, dict)}
    if kinds & (SELECT_TYPES | {4}) and len(children) > 1:
        err.add(
            [*path, "components"],
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for j, child in enumerate(children):
        cpath: list[str | int] = [*path, "components", j]
        if not err.object(cpath, child) or child is None:
            continue
        if child.get("type") == 1:
            err.add([*cpath, "type"], "UNION_TYPE_CHOICES", "Action rows cannot be nested")
        elif _type_choices(err, cpath, child.get("type"), ROW_CHILD_TYPES):
            _check_interactive(err, cpath, child)


def _optional_text(err: FormErrors, path: list[str | int], value: Any, high: int) -> None:
    """An optional string of 1..high characters (null allowed): alt texts."""
    if value is not None:
        err.bad_length(path, value, 1, high)


def _check_media(
    err: FormErrors, path: list[str | int], media: Any, *, attachment_only: bool
) -> None:
    """An unfurled media item (components/reference.mdx, Unfurled Media Item): "only the
    url field is settable"; spec UnfurledMediaRequest: url required, at most 2048. A File's
    "only supports attachment references using the attachment://<filename> syntax"."""
    if media is None:
        err.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    if not err.object(path, media):
        return
    url = media.get("url")
    if not isinstance(url, str) or not url:
        err.add([*path, "url"], "BASE_TYPE_REQUIRED", "This field is required")
        return
    err.max_len([*path, "url"], url, MAX_MEDIA_URL)
    if attachment_only and not url.startswith(ATTACHMENT_SCHEME):
        # the docs give the rule, not Discord's code for it: the code is the emulator's
        err.add(
            [*path, "url"],
            "UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED",
            "A file component only takes an attachment://<filename> reference",
        )


def _check_bool(err: FormErrors, path: list[str | int], value: Any) -> None:
    if value is not None and not isinstance(value, bool):
        err.add(path, "BASE_TYPE_BOOLEAN", "Must be either true or false.")


def _check_child(
    err: FormErrors, path: list[str | int], comp: Any, allowed: tuple[int, ...]
) -> None:
    """A component where only ``allowed`` types may stand, then its own rules."""
    if not err.object(path, comp) or comp is None:
        return
    if not _type_choices(err, path, comp.get("type"), allowed):
        return
    if comp.get("type") == 2:
        _check_interactive(err, path, comp)
    else:
        _check_v2(err, path, comp)


def _check_v2(err: FormErrors, path: list[str | int], comp: dict[str, Any]) -> None:
    """One component of a V2 message, by type (components/reference.mdx and the spec's
    ``*ComponentForMessageRequest`` schemas); its children through the same function."""
    ctype = comp.get("type")
    if ctype == 1:
        _check_row(err, path, comp)
    elif ctype == 10:
        # spec TextDisplayComponentForMessageRequest: content required, 1-4000
        err.bad_length([*path, "content"], comp.get("content"), 1, MAX_TEXT_DISPLAY)
    elif ctype == 9:
        # Section: "One to three child components" (text displays) and one accessory, a
        # button or a thumbnail (spec SectionComponentForMessageRequest, both required)
        texts = comp.get("components")
        if not isinstance(texts, list) or not 1 <= len(texts) <= 3:
            err.add(
                [*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length."
            )
            texts = texts if isinstance(texts, list) else []
        for j, text in enumerate(texts):
            _check_child(err, [*path, "components", j], text, SECTION_CHILD_TYPES)
        accessory = comp.get("accessory")
        apath: list[str | int] = [*path, "accessory"]
        if accessory is None:
            err.add(apath, "BASE_TYPE_REQUIRED", "This field is required")
        else:
            _check_child(err, apath, accessory, ACCESSORY_TYPES)
    elif ctype == 11:
        # Thumbnail: media required; description "max 1024" (spec: 1-1024 or null)
        _check_media(err, [*path, "media"], comp.get("media"), attachment_only=False)
        _optional_text(err, [*path, "description"], comp.get("description"), 1024)
        _check_bool(err, [*path, "spoiler"], comp.get("spoiler"))
    elif ctype == 12:
        # Media Gallery: "1 to 10 media gallery items"
        items = comp.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= 10:
            err.add([*path, "items"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10 in length.")
            items = items if isinstance(items, list) else []
        for k, item in enumerate(items):
            ipath: list[str | int] = [*path, "items", k]
            if not err.object(ipath, item) or item is None:
                continue
            _check_media(err, [*ipath, "media"], item.get("media"), attachment_only=False)
            _optional_text(err, [*ipath, "description"], item.get("description"), 1024)
            _check_bool(err, [*ipath, "spoiler"], item.get("spoiler"))
    elif ctype == 13:
        _check_media(err, [*path, "file"], comp.get("file"), attachment_only=True)
        _check_bool(err, [*path, "spoiler"], comp.get("spoiler"))
    elif ctype == 14:
        # Separator: spacing 1 (small) or 2 (large); divider a boolean
        spacing = comp.get("spacing")
        if spacing is not None and spacing not in (1, 2):
            err.add([*path, "spacing"], "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
        _check_bool(err, [*path, "divider"], comp.get("divider"))
    elif ctype == 17:
        # Container: 1-40 children among CONTAINER_CHILD_TYPES (spec
        # ContainerComponentForMessageRequest); accent_color an RGB integer 0..0xFFFFFF or
        # null; spoiler a boolean
        children = comp.get("components")
        if not isinstance(children, list) or not 1 <= len(children) <= MAX_V2_COMPONENTS:
            err.add(
                [*path, "components"],
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_V2_COMPONENTS} in length.",
            )
            children = children if isinstance(children, list) else []
        for j, child in enumerate(children):
            _check_child(err, [*path, "components", j], child, CONTAINER_CHILD_TYPES)
        colour = comp.get("accent_color")
        if colour is not None:
            if isinstance(colour, bool) or not isinstance(colour, int):
                err.add([*path, "accent_color"], "NUMBER_TYPE_COERCE", "Value is not int.")
            elif colour < 0:
                err.add(
                    [*path, "accent_color"],
                    "NUMBER_TYPE_MIN",
                    "int value should be greater than or equal to 0.",
                )
            elif colour > MAX_ACCENT_COLOR:
                err.add(
                    [*path, "accent_color"],
                    "NUMBER_TYPE_MAX",
                    f"int value should be less than or equal to {MAX_ACCENT_COLOR}.",
                )
        _check_bool(err, [*path, "spoiler"], comp.get("spoiler"))


def check_components(err: FormErrors, components: Any, flags: int, *, modal: bool = False) -> None:
    if not isinstance(components, list):
        return
    v2 = bool(flags & IS_COMPONENTS_V2)
    if v2:
        # components/reference.mdx: "Messages allow up to 40 total components" (the
        # changelog of the 40: "the number of components in a message", nested ones too)
        total = sum(1 for _ in walk_components(components))
        if total > MAX_V2_COMPONENTS:
            err.add(
                ["components"],
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_V2_COMPONENTS} or fewer in length.",
            )
        # the text displays of a message total at most 4000 characters (discord-api-docs
        # PR #8562 and issue #8554; discord.py's LayoutView.content_length counts them)
        text_len = sum(
            len(c.get("content") or "")
            for c in walk_components(components)
            if c.get("type") == 10 and isinstance(c.get("content"), str)
        )
        if text_len > MAX_TEXT_DISPLAY:
            err.add(
                ["components"],
                "MAX_TEXT_DISPLAY_LENGTH",
                f"Text display content exceeds {MAX_TEXT_DISPLAY}",
            )
        for i, comp in enumerate(components):
            _check_child(err, ["components", i], comp, V2_TOP_TYPES)
    else:
        if len(components) > 5:
            err.add(["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for i, row in enumerate(components):
            path: list[str | int] = ["components", i]
            rtype = row.get("type")
            if modal and rtype == 18:  # Label wrapping one component
                inner = row.get("component") or {}
                _check_interactive(err, [*path, "component"], inner)
                err.max_len([*path, "label"], row.get("label"), 45)
                continue
            if modal and rtype == 10:
                continue
            if modal and rtype == 1:
                _check_modal_row(err, path, row)
                continue
            if _type_choices(err, path, rtype, (1,)):
                _check_row(err, path, row)
    ids = [c["custom_id"] for c in walk_components(components) if c.get("custom_id")]
    dupes = sorted({c for c in ids if ids.count(c) > 1})
    if dupes:
        err.add(
            ["components"],
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            f"Component custom id cannot be duplicated: {', '.join(dupes)}",
        )
    # components/reference.mdx, Anatomy of a Component: "The id must be unique within the
    # message" (0 counts as empty); the code is the emulator's
    numbers: list[int] = [
        n
        for c in walk_components(components)
        if isinstance(n := c.get("id"), int) and not isinstance(n, bool) and n
    ]
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    if twice:
        err.add(
            ["components"],
            "COMPONENT_ID_DUPLICATED",
            f"Component id cannot be duplicated: {', '.join(map(str, twice))}",
        )


def _check_modal_row(err: FormErrors, path: list[str | int], row: dict[str, Any]) -> None:
    """A modal's (deprecated) action row: one text input, or buttons/selects as before."""
    children = row.get("components") or []
    if not children or len(children) > 5:
        err.add([*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    kinds = {c.get("type") for c in children}
    if kinds & (SELECT_TYPES | {4}) and len(children) > 1:
        err.add(
            [*path, "components"],
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for j, child in enumerate(children):
        if child.get("type") == 1:
            err.add(
                [*path, "components", j, "type"],
                "UNION_TYPE_CHOICES",
                "Action rows cannot be nested",
            )
        _check_interactive(err, [*path, "components", j], child)


def check_locales(err: FormErrors, path: list[str | int], localizations: Any) -> None:
    """A localisation dict's keys are Discord locales (50035 otherwise)."""
    for loc in localizations or {}:
        if loc not in LOCALES:
            err.add(
                [*path, loc],
                "BASE_TYPE_CHOICES",
                f"Value must be one of {sorted(LOCALES)}.",
            )


def check_channel_flags(err: FormErrors, payload: dict[str, Any]) -> None:
    """A channel message (not an interaction's) carries only the flags it may set."""
    flags = int(payload.get("flags") or 0)
    if flags & ~CHANNEL_MESSAGE_FLAGS:
        err.add(["flags"], "MESSAGE_FLAGS_INVALID", f"Invalid message flags: {flags}.")


def check_message(payload: dict[str, Any], flags: int) -> FormErrors:
    """Checks a message create/edit payload (only the fields present)."""
    err = FormErrors()
    content = payload.get("content")
    if content is not None and not isinstance(content, str):
        err.add(["content"], "BASE_TYPE_STRING", "Must be a string.")
    else:
        err.max_len(["content"], content, 2000)
    if "embeds" in payload:
        check_embeds(err, payload.get("embeds") or [])
    if "components" in payload:
        check_components(err, payload.get("components") or [], flags)
    check_nonce(err, payload)
    if "allowed_mentions" in payload:
        check_allowed_mentions(err, payload.get("allowed_mentions"))
    if flags & IS_COMPONENTS_V2:
        for field in LEGACY_FIELDS:
            if _filled(payload.get(field)):
                _legacy_field(err, field)
    return err


def _filled(value: Any) -> bool:
    """A legacy field that says something: null, "" and [] reset it (Edit Message: "For
    content and poll this is null. For embeds and sticker_ids this is []")."""
    return value is not None and value != "" and value != []


def _legacy_field(err: FormErrors, field: str) -> None:
    # Discord's words, as bots quote its answer (e.g. "content[MESSAGE_CANNOT_USE_LEGACY_
    # FIELDS_WITH_COMPONENTS_V2]: The 'content' field cannot be used when using
    # MessageFlags.IS_COMPONENTS_V2")
    err.add(
        [field],
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        f"The '{field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
    )


def check_v2_edit(
    err: FormErrors, before: int, flags: int, payload: dict[str, Any], kept: dict[str, Any]
) -> None:
    """An edit against what the message was (``before``: its flags; ``kept``: its legacy
    fields' current values), with the flags the edit leaves (``flags``).

    - A V2 message stays V2: "Setting the IS_COMPONENTS_V2 message flag cannot be reverted:
      once the message has been sent, the flag cannot be removed from the message when
      editing" (using-message-components.mdx). An edit whose ``flags`` lack it is checked
      as a V1 message, as Discord does (its components answer UNION_TYPE_CHOICES,
      Discord.Net#3132); with nothing else to refuse, the ``flags`` field is refused
      (*emulator's code*: Discord documents the rule, not its answer).
    - A V1 message may become V2 ("the IS_COMPONENTS_V2 flag can only be set", Edit
      Message), but "any of the used content, embeds, sticker_ids, or poll fields must have
      their values reset to empty ... Failing to do this will result in a 400 BAD REQUEST".
    """
    if before & IS_COMPONENTS_V2 and not flags & IS_COMPONENTS_V2:
        if not err:
            err.add(
                ["flags"],
                "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                "The IS_COMPONENTS_V2 flag cannot be removed from a message",
            )
        return
    if flags & IS_COMPONENTS_V2 and not before & IS_COMPONENTS_V2:
        for field, value in kept.items():
            if field not in payload and _filled(value):
                _legacy_field(err, field)


def media_refs(components: list[dict[str, Any]]) -> list[tuple[list[str | int], str]]:
    """Every ``attachment://`` reference of a message's components, with its path: the
    thumbnails' and gallery items' ``media``, the files' ``file``."""
    found: list[tuple[list[str | int], str]] = []

    def visit(path: list[str | int], comp: Any) -> None:
        if not isinstance(comp, dict):
            return
        medias: list[tuple[list[str | int], Any]] = []
        if comp.get("type") == 11:
            medias.append(([*path, "media"], comp.get("media")))
        elif comp.get("type") == 13:
            medias.append(([*path, "file"], comp.get("file")))
        elif comp.get("type") == 12:
            for k, item in enumerate(comp.get("items") or []):
                if isinstance(item, dict):
                    medias.append(([*path, "items", k, "media"], item.get("media")))
        for mpath, media in medias:
            url = media.get("url") if isinstance(media, dict) else None
            if isinstance(url, str) and url.startswith(ATTACHMENT_SCHEME):
                found.append(([*mpath, "url"], url.removeprefix(ATTACHMENT_SCHEME)))
        for j, child in enumerate(comp.get("components") or []):
            visit([*path, "components", j], child)
        if "accessory" in comp:
            visit([*path, "accessory"], comp["accessory"])

    for i, comp in enumerate(components if isinstance(components, list) else []):
        visit(["components", i], comp)
    return found


def check_media_refs(
    err: FormErrors, components: list[dict[str, Any]], names: Collection[str]
) -> None:
    """An ``attachment://name`` must name a file of the message once written (a new
    upload, or an attachment it keeps): components/reference.mdx, Unfurled Media Item
    ("attachment://<filename> references"), File ("display an uploaded file"). Discord
    answers that the "unfurled media attachment" is not found (discord-api-docs#7529); the
    code is the emulator's."""
    for path, name in media_refs(components):
        if name not in names:
            err.add(
                path,
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                f"Unfurled media attachment not found: {name}",
            )


def check_allowed_mentions(err: FormErrors, mentions: Any) -> None:
    """message.mdx, "Allowed Mentions Object": ``parse`` holds allowed mention types,
    ``users`` and ``roles`` at most 100 ids each, and ``parse`` is mutually exclusive with
    them: ``parse: ["users"]`` with a non-empty ``users`` is "an invalid configuration ...
    causing a validation error" (Discord: MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE);
    ``users: []`` or ``null`` "does not trigger a validation error"."""
    path: list[str | int] = ["allowed_mentions"]
    if not err.object(path, mentions) or not mentions:
        return
    parse = mentions.get("parse") or []
    for i, kind in enumerate(parse if isinstance(parse, list) else []):
        if kind not in MENTION_TYPES:
            err.add(
                [*path, "parse", i],
                "BASE_TYPE_CHOICES",
                f"Value must be one of {MENTION_TYPES}.",
            )
    for kind in ("users", "roles"):
        ids = mentions.get(kind)
        if isinstance(ids, list) and len(ids) > MAX_MENTION_IDS:
            err.add(
                [*path, kind],
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_MENTION_IDS} or fewer in length.",
            )
        if ids and isinstance(parse, list) and kind in parse:
            err.add(
                path,
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
            )


def check_attachments(
    err: FormErrors, payload: dict[str, Any], files: Collection[int], kept: Collection[int]
) -> int:
    """The ``attachments`` field against the request's ``files[n]`` parts (``files``: their
    n) and the message's own attachments (``kept``: their ids, on an edit). Returns how many
    attachments the message would then carry.

    An id that names neither is refused: 50035 ATTACHMENT_NOT_FOUND "Attachment data not
    found" (message.mdx, Attachment Request Structure: "for new attachments this must match
    the n in files[n]"). Without the field, Edit Message appends the files ("Any provided
    files will be appended to the message")."""
    if "attachments" not in payload:
        return len(kept) + len(files)
    metas = payload.get("attachments") or []
    if not isinstance(metas, list):
        err.add(["attachments"], "BASE_TYPE_LIST", "Must be an array.")
        return len(files)
    if len(metas) > MAX_ATTACHMENTS:
        err.add(
            ["attachments"],
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {MAX_ATTACHMENTS} or fewer in length.",
        )
    count, named = 0, set()
    for i, meta in enumerate(metas):
        if not err.object(["attachments", i], meta) or meta is None:
            continue
        try:
            aid = int(meta.get("id"))
        except (TypeError, ValueError):
            err.add(["attachments", i, "id"], "BASE_TYPE_REQUIRED", "This field is required")
            continue
        if aid in files or aid in kept:
            named.add(aid)
            count += 1
        else:
            err.add(["attachments", i], "ATTACHMENT_NOT_FOUND", "Attachment data not found")
    return count + sum(1 for f in files if f not in named)


def check_callback(rtype: int, data: dict[str, Any]) -> FormErrors:
    """An interaction response's own rules (receiving-and-responding.mdx): a message
    response (type 4) sets only the flags of :data:`RESPONSE_MESSAGE_FLAGS`; an autocomplete
    result (type 8) holds at most 25 choices, each a choice of application-commands.mdx
    (name 1-100 characters, a string value up to 100)."""
    err = FormErrors()
    flags = data.get("flags")
    if rtype == 4 and isinstance(flags, int) and flags & ~RESPONSE_MESSAGE_FLAGS:
        err.add(["data", "flags"], "MESSAGE_FLAGS_INVALID", f"Invalid message flags: {flags}.")
    choices = data.get("choices")
    if rtype == 8 and isinstance(choices, list):
        if len(choices) > 25:
            err.add(["data", "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for k, choice in enumerate(choices):
            if err.object(["data", "choices", k], choice) and choice:
                _check_choice(err, ["data", "choices", k], choice)
    return err


def dropped_defer_flags(rtype: int, data: dict[str, Any]) -> int:
    """The flags a deferred response (type 5) asked for that Discord drops: "the only valid
    message flag you may use is EPHEMERAL" (receiving-and-responding.mdx). Discord answers
    204 and keeps EPHEMERAL alone (discord-api-docs PR #7386, issue #7910), so the emulator
    does the same and reports them."""
    flags = data.get("flags") if rtype == 5 else None
    return flags & ~EPHEMERAL if isinstance(flags, int) else 0


def _check_choice(err: FormErrors, path: list[str | int], choice: dict[str, Any]) -> None:
    err.bad_length([*path, "name"], choice.get("name"), 1, 100)
    # application-commands.mdx: "Value for the choice, up to 100 characters if string"
    # (discord-api-spec says 6000: the emulator keeps the documented, stricter limit)
    err.max_len([*path, "value"], choice.get("value"), 100)


def _longest(node: dict[str, Any], field: str) -> int:
    texts = [node.get(field), *(node.get(f"{field}_localizations") or {}).values()]
    return max((len(str(t)) for t in texts if t is not None), default=0)


def command_size(node: dict[str, Any]) -> int:
    """The characters Discord counts against :data:`MAX_COMMAND_SIZE`: each name and
    description (the longest of its localisations), each choice's name and value, through
    every option, subcommand and group."""
    total = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total + sum(command_size(opt) for opt in node.get("options") or [])


def check_command(err: FormErrors, path: list[str | int], cmd: dict[str, Any]) -> None:
    """A command's size and its options' bounds (application-commands.mdx, "Application
    Command Option Structure"): ``min_value``/``max_value`` belong to INTEGER and NUMBER
    options, ``min_length`` (0-6000) / ``max_length`` (1-6000) to STRING ones, a minimum
    never above its maximum; a string choice's value is at most 100 characters."""
    if command_size(cmd) > MAX_COMMAND_SIZE:
        err.add(
            path,
            "APPLICATION_COMMAND_TOO_LARGE",
            f"Command exceeds maximum size ({MAX_COMMAND_SIZE})",
        )
    _check_options(err, path, cmd)


def _check_options(err: FormErrors, path: list[str | int], node: dict[str, Any]) -> None:
    for j, opt in enumerate(node.get("options") or []):
        opath: list[str | int] = [*path, "options", j]
        otype = int(opt.get("type", STRING_OPTION))
        _check_options(err, opath, opt)
        for low, high, types in (
            ("min_value", "max_value", (INTEGER_OPTION, NUMBER_OPTION)),
            ("min_length", "max_length", (STRING_OPTION,)),
        ):
            for key in (low, high):
                if opt.get(key) is not None and otype not in types:
                    err.add(
                        [*opath, key],
                        "APPLICATION_COMMAND_OPTION_FIELD_INVALID",
                        f"{key} is only valid on option types {types}",
                    )
            lo, hi = opt.get(low), opt.get(high)
            if isinstance(lo, int | float) and isinstance(hi, int | float) and lo > hi:
                err.add(
                    [*opath, low],
                    "APPLICATION_COMMAND_OPTION_MIN_ABOVE_MAX",
                    f"{low} must be less than or equal to {high}",
                )
        for key, floor in (("min_length", 0), ("max_length", 1)):
            value = opt.get(key)
            if isinstance(value, int) and not floor <= value <= 6000:
                code, bound = (
                    ("NUMBER_TYPE_MIN", floor) if value < floor else ("NUMBER_TYPE_MAX", 6000)
                )
                word = "greater" if code == "NUMBER_TYPE_MIN" else "less"
                err.add(
                    [*opath, key], code, f"int value should be {word} than or equal to {bound}."
                )
        for k, choice in enumerate(opt.get("choices") or []):
            if isinstance(choice, dict):
                err.max_len([*opath, "choices", k, "value"], choice.get("value"), 100)


def check_nonce(err: FormErrors, payload: dict[str, Any]) -> None:
    """A message's ``nonce``: an integer or a string of at most 25 characters;
    ``enforce_nonce`` a boolean (the create-message fields of Discord's API reference)."""
    nonce = payload.get("nonce")
    if isinstance(nonce, str):
        err.max_len(["nonce"], nonce, 25)
    elif nonce is not None and (isinstance(nonce, bool) or not isinstance(nonce, int)):
        err.add(["nonce"], "BASE_TYPE_STRING", "Must be a string or an integer.")
    enforce = payload.get("enforce_nonce")
    if enforce is not None and not isinstance(enforce, bool):
        err.add(["enforce_nonce"], "BASE_TYPE_BOOLEAN", "Must be either true or false.")


def check_modal(data: dict[str, Any]) -> FormErrors:
    err = FormErrors()
    if not data.get("title"):
        err.add(["data", "title"], "BASE_TYPE_REQUIRED", "This field is required")
    err.max_len(["data", "title"], data.get("title"), 45)
    cid = data.get("custom_id")
    if not cid or len(cid) > 100:
        err.add(
            ["data", "custom_id"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        err.add(
            ["data", "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    check_components(err, comps, 0, modal=True)
    return err


#: a custom emoji as markup (``<:name:id>``, ``<a:name:id>``)
EMOJI_MARKUP = re.compile(r"<a?:\w+:\d+>")


def markup_in_labels(components: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Every button label, select placeholder and option label that holds custom emoji
    markup, which Discord shows as text there (the component's ``emoji`` field shows one)."""
    found = []
    for comp in walk_components(components):
        texts = [("label", comp.get("label")), ("placeholder", comp.get("placeholder"))]
        texts += [("option label", o.get("label")) for o in comp.get("options") or []]
        found += [(w, str(x)) for w, x in texts if isinstance(x, str) and EMOJI_MARKUP.search(x)]
    return found
