#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes docs/config.schema.json, the JSON Schema of tern config files.

The globals come from include/tern_globals.h, the one table of settings,
so that the schema cannot drift from it: test_config.py checks that the
file is what this prints. Usage: test/config-schema.py > docs/config.schema.json
"""

import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

P4 = r"^[0-9.]+/[0-9]{1,2}$"
P6 = r"^[0-9a-fA-F:.]+/[0-9]{1,3}$"
KINDS = {
    "BOOL": {"type": "boolean"},
    "U8": {"type": "integer"},
    "U32": {"type": "integer"},
    "PREFIX6": {"type": "string", "pattern": P6},
    "PREFIX4_OPT": {"type": ["string", "null"], "pattern": P4},
    "PREFIX6_OPT": {"type": ["string", "null"], "pattern": P6},
    "PLATEAUS": {"type": "array", "minItems": 1, "maxItems": 64,
                 "items": {"type": "integer", "minimum": 68,
                           "maximum": 65535}},
    "HAIRPIN": {"enum": ["off", "simple", "intrinsic"]},
}


def num(s):
    s = s.strip()
    m = re.fullmatch(r"(\d+)U? << (\d+)", s)
    if m:
        return int(m.group(1)) << int(m.group(2))
    m = re.fullmatch(r"(\d+) \* (\d+)", s)
    if m:
        return int(m.group(1)) * int(m.group(2))
    return int(s) if s.isdigit() else None


def globals_():
    text = open(os.path.join(ROOT, "include", "tern_globals.h")).read()
    props = {}
    for m in re.finditer(r"\{ \.key = \"([a-z0-9-]+)\",(.*?)\.help = "
                         r"((?:\"[^\"]*\"\s*)+)\}", text, re.S):
        key, body = m.group(1), m.group(2)
        kind = re.search(r"TERN_KIND_(\w+)", body).group(1)
        if key == "pool6":
            continue
        p = dict(KINDS[kind])
        p["description"] = "".join(re.findall(r"\"([^\"]*)\"", m.group(3)))
        if kind in ("U8", "U32"):
            lo = re.search(r"\.min = ([^,]+),", body)
            hi = re.search(r"\.max = ([^,]+),", body)
            p["minimum"] = num(lo.group(1)) if lo else 0
            p["maximum"] = num(hi.group(1)) if hi else \
                (255 if kind == "U8" else 4294967295)
        props[key] = p
    return props


def schema():
    port = {"type": "string", "pattern": r"^[0-9]{1,5}(-[0-9]{1,5})?$"}
    ta = r"#[0-9]{1,5}$"
    instance = {
        "type": "object",
        "required": ["name", "type"],
        "additionalProperties": False,
        "properties": {
            # Printable ASCII but blanks, quotes and backslashes
            # (tern_instance_name_chars_ok()).
            "name": {"type": "string", "minLength": 1, "maxLength": 15,
                     "pattern": r"^[!#-&(-\[\]-~]+$"},
            "type": {"enum": ["siit", "nat64"]},
            "framework": {"enum": ["netfilter", "iptables"],
                          "default": "netfilter"},
            "pool6": {"type": "string", "pattern": P6,
                      "description": "RFC 6052 prefix; NAT64 needs one"},
            "globals": {"type": "object", "additionalProperties": False,
                        "properties": globals_(),
                        "description": "settings not given take their "
                                       "defaults"},
            "eamt": {"type": "array", "maxItems": 65536, "items": {
                "type": "object", "additionalProperties": False,
                "required": ["prefix6", "prefix4"],
                "properties": {
                    "prefix6": {"type": "string", "pattern": P6},
                    "prefix4": {"type": "string", "pattern": P4},
                    "force": {"type": "boolean",
                              "description": "the entry may overlap others "
                                             "(nest inside or around them; "
                                             "the longest prefix wins); of "
                                             "two overlapping entries, one "
                                             "must have it"}}}},
            "denylist4": {"type": "array", "maxItems": 65536,
                          "items": {"type": "string", "pattern": P4}},
            "pool4": {"type": "array", "items": {
                "type": "object", "additionalProperties": False,
                "required": ["prefix"],
                "properties": {
                    "prefix": {"type": "string",
                               "pattern": r"^[0-9.]+(/[0-9]{1,2})?$"},
                    "protocols": {"type": "array", "minItems": 1,
                                  "uniqueItems": True,
                                  "items": {"enum": ["tcp", "udp",
                                                     "icmp"]},
                                  "description": "default: all three"},
                    "ports": {"anyOf": [port, {
                        "type": "integer", "minimum": 0,
                        "maximum": 65535}],
                        "description": "default: 1024-65535, ICMP "
                                       "0-65535"},
                    "mark": {"type": "integer", "minimum": 0,
                             "maximum": 4294967295, "default": 0}}}},
            "bib": {"type": "array", "items": {
                "type": "object", "additionalProperties": False,
                "required": ["protocol", "ipv6", "ipv4"],
                "properties": {
                    "protocol": {"enum": ["tcp", "udp", "icmp"]},
                    "ipv6": {"type": "string",
                             "pattern": r"^[0-9a-fA-F:.]+" + ta},
                    "ipv4": {"type": "string",
                             "pattern": r"^[0-9.]+" + ta}}}},
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Tern configuration (tern config apply, docs/config.md)",
        "type": "object",
        "additionalProperties": False,
        "properties": {"instances": {"type": "array", "items": instance}},
    }


if __name__ == "__main__":
    print(json.dumps(schema(), indent=2))
