#!/usr/bin/env python3
"""Writes python/bwc_emu/wire_types.py: the control API's answers as TypedDicts, made from the
committed OpenAPI document (schema/control-api.openapi.json, itself generated from the server's
zod schemas), so the Python package declares no wire shape of its own. Standard library only.

    python3 python/tools/gen_wire_types.py           # write it (npm run docs runs this)
    python3 python/tools/gen_wire_types.py --check   # exit 1 when it is not what the document makes

ROOTS names the types the package returns and where each is in the document. An object met
inside them gets its parent's name plus its key's, unless it has the shape (descriptions aside)
of a type named already, which it then is. A oneOf whose members each have a ``const`` key (the
journal's ``kind``) becomes a Union of one TypedDict per value.
"""
import json
import keyword
import os
import sys
import textwrap
from typing import Any, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DOCUMENT = os.path.join(REPO, "schema", "control-api.openapi.json")
TARGET = os.path.join(REPO, "python", "bwc_emu", "wire_types.py")

#: (name, where): a component (``#/components/schemas/X`` and a pointer into it) or a route's
#: 200 answer (``METHOD /path`` and a pointer into it). Named first, first name wins a shape.
ROOTS: List[Tuple[str, str]] = [
    ("ErrorBody", "#/components/schemas/Error"),
    ("JournalEntry", "#/components/schemas/JournalEntry"),
    ("FaultName", "GET /_emu/faults /properties/faults/items/properties/name"),
    ("Severity", "#/components/schemas/Report/properties/findings/items/properties/severity"),
    ("TopicFilter", "GET /_emu/sessions /properties/sessions/items/properties/filters/items"),
    ("SessionInfo", "GET /_emu/sessions /properties/sessions/items"),
    ("DeviceAccess", "GET /_emu/devices /items"),
    ("Flag", "GET /_emu/flags /properties/flags/items"),
    ("PublishedEvent", "#/components/schemas/PublishedEvent"),
    ("FaultInfo", "GET /_emu/faults /properties/faults/items"),
    ("FaultSwitch", "GET /_emu/faults/switches /properties/switches/items"),
    ("Segment", "#/components/schemas/Segment"),
    ("ScenarioStatus", "#/components/schemas/ScenarioStatus"),
    ("DeviceOverride", "#/components/schemas/DeviceOverride"),
    ("Thresholds", "#/components/schemas/Report/properties/thresholds"),
    ("Summary", "#/components/schemas/Report/properties/summary"),
    ("JournalCounts", "#/components/schemas/Report/properties/journal"),
    ("SegmentRef", "#/components/schemas/Report/properties/findings/items/properties/segment"),
    ("FindingClient", "#/components/schemas/Report/properties/findings/items/properties/client"),
    ("Finding", "#/components/schemas/Report/properties/findings/items"),
    ("Expectation", "#/components/schemas/Report/properties/expectations/items"),
    ("RuleApplied", "#/components/schemas/Report/properties/rules/items"),
    ("ReportSegment", "#/components/schemas/Report/properties/segments/items"),
    ("Report", "#/components/schemas/Report"),
    # the answers' envelopes, which the handle unwraps
    ("HealthAnswer", "GET /_emu/health"),
    ("DevicesAnswer", "GET /_emu/devices"),
    ("EventsAnswer", "POST /_emu/events"),
    ("StatesAnswer", "PUT /_emu/states"),
    ("FlagsAnswer", "GET /_emu/flags"),
    ("FlagsSetAnswer", "PUT /_emu/flags"),
    ("SessionsAnswer", "GET /_emu/sessions"),
    ("SessionsClosedAnswer", "DELETE /_emu/sessions"),
    ("FaultsAnswer", "GET /_emu/faults"),
    ("FaultsOnAnswer", "POST /_emu/faults"),
    ("FaultsClearedAnswer", "DELETE /_emu/faults"),
    ("FaultSwitchesAnswer", "GET /_emu/faults/switches"),
    ("OverridesAnswer", "GET /_emu/overrides"),
    ("OverridesClearedAnswer", "DELETE /_emu/overrides"),
    ("JournalAnswer", "GET /_emu/journal"),
    ("ScenarioLoadedAnswer", "PUT /_emu/scenario"),
    ("SessionWaitAnswer", "GET /_emu/wait/session"),
    ("NotificationWaitAnswer", "GET /_emu/wait/notification"),
    ("EntryWaitAnswer", "GET /_emu/wait/entry"),
]

#: Keywords that say nothing about the Python type: two shapes differing only in them are one.
ANNOTATIONS = {"description", "readOnly", "writeOnly", "example", "examples", "title", "default", "deprecated"}

SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}


def pointer(node: Any, path: str) -> Any:
    """The node at a JSON pointer (``/a/b``) below ``node``."""
    for part in [p for p in path.split("/") if p]:
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def resolve(document: Dict[str, Any], where: str) -> Any:
    """The schema a ROOTS entry names."""
    if where.startswith("#/"):
        return pointer(document, where[1:])
    method, path, *rest = where.split(" ")
    answer = document["paths"][path][method.lower()]["responses"]["200"]["content"]["application/json"]["schema"]
    return pointer(answer, rest[0]) if rest else answer


def readable(where: str) -> str:
    """A ROOTS place as a person reads it: ``Report.findings[]``, ``GET /_emu/sessions: sessions[]``."""
    component = where.startswith("#/")
    if component:
        head, _, path = where[len("#/components/schemas/") :].partition("/")
    else:
        method, route, *rest = where.split(" ")
        head, path = f"{method} {route}", "".join(rest)
    parts = [p for p in path.split("/") if p]
    text = ""
    for i, part in enumerate(parts):
        if part == "items":
            text += "[]"
        elif i > 0 and parts[i - 1] == "properties":
            text += "." + part
    if not text:
        return head
    return head + text if component else f"{head}: {text.lstrip('.')}"


def shape(schema: Any) -> str:
    """A key equal for two schemas that make the same Python type."""

    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k not in ANNOTATIONS}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    return json.dumps(strip(schema), sort_keys=True)


def pascal(text: str) -> str:
    """``ws-open`` -> ``WsOpen``, ``skippedRules`` -> ``SkippedRules``."""
    words = [w for w in text.replace("-", " ").replace("_", " ").split(" ") if w]
    return "".join(w[0].upper() + w[1:] for w in words)


def comment(text: str, indent: str) -> List[str]:
    """A description as ``#:`` lines of at most 100 characters."""
    return textwrap.wrap(" ".join(text.split()), 100 - len(indent) - 3, initial_indent=indent + "#: ", subsequent_indent=indent + "#: ")


class Generator:
    """Turns schemas into Python type expressions, writing each TypedDict once, children first."""

    def __init__(self, document: Dict[str, Any]) -> None:
        self.document = document
        self.reserved: Dict[str, str] = {}
        self.written: Dict[str, str] = {}
        self.blocks: List[str] = []

    def reserve(self, name: str, schema: Any) -> None:
        """Gives a shape its name before anything is written (the first name wins)."""
        self.reserved.setdefault(shape(schema), name)
        for member_name, member in self.members(name, schema):
            self.reserved.setdefault(shape(member), member_name)

    def members(self, name: str, schema: Any) -> List[Tuple[str, Any]]:
        """A tagged oneOf's members, each named by its tag's value plus ``name``."""
        found = []
        for member in [self.deref(m) for m in schema.get("oneOf", [])]:
            tags = [p["const"] for p in member.get("properties", {}).values() if isinstance(p, dict) and "const" in p]
            if len(tags) != 1:
                return []
            found.append((pascal(str(tags[0])) + name, member))
        return found

    def tags(self, schema: Any) -> List[str]:
        """How a tagged oneOf's members are told apart: ``kind "http"``, ..."""
        found = []
        for member in [self.deref(m) for m in schema["oneOf"]]:
            found += [f"{key}={json.dumps(p['const'])}" for key, p in member["properties"].items() if isinstance(p, dict) and "const" in p]
        return found

    def deref(self, schema: Any) -> Any:
        """The schema a ``$ref`` points to (or the schema itself)."""
        return pointer(self.document, schema["$ref"][1:]) if "$ref" in schema else schema

    def root(self, name: str, where: str) -> None:
        """Writes a ROOTS entry: its TypedDict, or an alias when its shape has a name already."""
        schema = self.deref(resolve(self.document, where))
        where = readable(where)
        known = self.reserved.get(shape(schema))
        if known is not None and known != name:
            self.blocks.append(f"#: {where}: the same shape as {known}.\n{name} = {self.type_of(schema, known, where)}\n")
        elif "properties" in schema or "oneOf" in schema or "enum" in schema or "const" in schema:
            self.type_of(schema, name, where)
        else:
            self.blocks.append(f"#: {where}.\n{name} = {self.type_of(schema, name + 'Item', where)}\n")

    def type_of(self, schema: Any, hint: str, origin: str) -> str:
        """The Python type of a schema; ``hint`` names a TypedDict it needs and has no name for,
        ``origin`` says where it is (for the docstring)."""
        schema = self.deref(schema)
        if "const" in schema or "enum" in schema:
            values = [schema["const"]] if "const" in schema else [v for v in schema["enum"] if v is not None]
            literal = self.alias(schema, f"Literal[{', '.join(json.dumps(v) for v in values)}]", origin)
            return f"Optional[{literal}]" if None in schema.get("enum", []) else literal
        if "oneOf" in schema or "anyOf" in schema:
            if self.members(hint, schema):
                return self.named(schema, hint, origin)
            members = schema.get("oneOf") or schema["anyOf"]
            return f"Union[{', '.join(self.type_of(m, f'{hint}{i + 1}', origin) for i, m in enumerate(members))}]"
        kind = schema.get("type")
        if isinstance(kind, list):
            types = [self.type_of({**schema, "type": k}, hint, origin) for k in kind if k != "null"]
            inner = types[0] if len(types) == 1 else f"Union[{', '.join(types)}]"
            return f"Optional[{inner}]" if "null" in kind else inner
        if kind in SCALARS:
            return SCALARS[kind]
        if kind == "array":
            return f"List[{self.type_of(schema.get('items', {}), hint + 'Item', origin + '[]')}]"
        if kind == "object" and schema.get("properties"):
            return self.named(schema, hint, origin)
        if kind == "object" and isinstance(schema.get("additionalProperties"), dict) and schema["additionalProperties"]:
            return f"Dict[str, {self.type_of(schema['additionalProperties'], hint + 'Value', origin + '[*]')}]"
        if kind == "object":
            return "Dict[str, Any]"
        return "Any"

    def alias(self, schema: Any, text: str, origin: str) -> str:
        """A Literal's name when ROOTS names its shape (written the first time), else the Literal."""
        name = self.reserved.get(shape(schema))
        if name is None:
            return text
        if name not in self.written:
            self.written[name] = shape(schema)
            self.blocks.append("\n".join(comment(f"{origin}.", "")) + f"\n{name} = {text}\n")
        return name

    def named(self, schema: Any, hint: str, origin: str) -> str:
        """The name of an object (or tagged oneOf) schema, writing its definition the first time."""
        name = self.reserved.get(shape(schema), hint)
        if name in self.written:
            if self.written[name] != shape(schema):
                raise ValueError(f"two shapes would be named {name}: name one of them in ROOTS")
            return name
        self.written[name] = shape(schema)
        if "oneOf" in schema:
            parts = [self.named(member, member_name, f"{origin}[{tag}]") for (member_name, member), tag in zip(self.members(name, schema), self.tags(schema))]
            doc = comment(schema.get("description") or f"{origin}: one of these, told apart by their tag.", "")
            self.blocks.append("\n".join(doc) + f"\n{name} = Union[\n" + "".join(f"    {p},\n" for p in parts) + "]\n")
            return name
        fields = []
        for key, child in schema["properties"].items():
            description = child.get("description") or self.deref(child).get("description")
            fields.append((key, self.type_of(child, name + pascal(key), f"{origin}.{key}"), description))
        self.blocks.append(self.typed_dict(name, schema, fields, origin))
        return name

    def typed_dict(self, name: str, schema: Any, fields: List[Tuple[str, str, Optional[str]]], origin: str) -> str:
        """A TypedDict, the 3.9 way: the required keys in a base class, the others in a total=False one."""
        required = set(schema.get("required", []))
        needed = [f for f in fields if f[0] in required]
        optional = [f for f in fields if f[0] not in required]
        description = schema.get("description")
        doc = f"{description[0].upper()}{description[1:].rstrip('.')}. From {origin}." if description else f"From {origin}."
        if needed and optional:
            base = f"_{name}Required"
            return self.one_class(base, "TypedDict", needed, None) + "\n\n" + self.one_class(name, base, optional, doc, total=False)
        return self.one_class(name, "TypedDict", fields, doc, total=bool(needed))

    def one_class(self, name: str, base: str, fields: List[Tuple[str, str, Optional[str]]], doc: Optional[str], total: bool = True) -> str:
        """One TypedDict class, or the functional form when a key is no identifier (``from``)."""
        flag = "" if total else ", total=False"
        if any(keyword.iskeyword(key) or not key.isidentifier() for key, _, _ in fields):
            own = name if base == "TypedDict" else f"_{name}Keys"
            lines = comment(doc, "") if doc and own == name else []
            lines += [f"{own} = TypedDict(", f"    {json.dumps(own)},", "    {"]
            for key, kind, description in fields:
                lines += comment(description, "        ") if description else []
                lines.append(f"        {json.dumps(key)}: {kind},")
            lines += [f"    }}{flag},", ")"]
            if own == name:
                return "\n".join(lines) + "\n"
            # a functional TypedDict extends nothing: a class joins it to the base
            return "\n".join(lines) + f"\n\n\nclass {name}({base}, {own}{flag}):\n" + self.docstring(doc or name) + "\n"
        lines = [f"class {name}({base}{flag}):"]
        if doc:
            lines += [self.docstring(doc), ""]
        for key, kind, description in fields:
            lines += comment(description, "    ") if description else []
            lines.append(f"    {key}: {kind}")
        return "\n".join(lines) + "\n"

    @staticmethod
    def docstring(text: str) -> str:
        """A class docstring of lines of at most 100 characters."""
        lines = textwrap.wrap(text, 92)
        return '    """' + "\n    ".join(lines) + ('"""' if len(lines) == 1 else '\n    """')

    def module(self) -> str:
        """The whole of wire_types.py."""
        for name, where in ROOTS:
            self.reserve(name, self.deref(resolve(self.document, where)))
        for name, where in ROOTS:
            self.root(name, where)
        head = (
            '"""The control API\'s answers as the server sends them (camelCase keys), as TypedDicts:\n'
            "plain dicts at run time. Generated from schema/control-api.openapi.json (itself generated from\n"
            "the server's zod schemas) by python/tools/gen_wire_types.py: do not edit, run `npm run docs`.\n"
            '"""\n'
            "from typing import Any, Dict, List, Literal, Optional, TypedDict, Union\n"
        )
        return head + "".join("\n\n" + block for block in self.blocks)


def generate(document_path: str = DOCUMENT) -> str:
    """The text wire_types.py must have for the document."""
    with open(document_path, encoding="utf-8") as file:
        return Generator(json.load(file)).module()


def main(argv: List[str]) -> int:
    """Writes wire_types.py, or with --check says whether it is current."""
    text = generate()
    current = open(TARGET, encoding="utf-8").read() if os.path.exists(TARGET) else ""
    if "--check" in argv:
        if current != text:
            print(f"{os.path.relpath(TARGET, REPO)} is not current: run npm run docs", file=sys.stderr)
            return 1
        return 0
    if current != text:
        with open(TARGET, "w", encoding="utf-8") as file:
            file.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
