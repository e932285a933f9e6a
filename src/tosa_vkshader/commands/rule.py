"""`tosa-vkshader rule [CODE]`: list the rules or explain one."""

from __future__ import annotations

import argparse
import sys

from ..rule_registry import find


def register(subparsers) -> None:
    parser = subparsers.add_parser("rule", help="list rules, or explain one code")
    parser.add_argument("code", nargs="?", help="a rule code such as VKS111, or its name")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..rules_doc import all_rules, documented

    if args.code is None:
        for item in all_rules():
            print(f"{item.code}  {item.severity.label:<7}  {item.name:<34} {item.summary}")
        return 0
    entry = find(args.code)
    if entry is None:
        print(f"tosa-vkshader rule: no rule {args.code!r}", file=sys.stderr)
        return 2
    match = documented(entry)
    print(f"{match.code} {match.name} ({match.severity.label}, {match.group})\n")
    print(match.summary + "\n")
    print("Why: " + match.why + "\n")
    print("Bad:\n    " + match.bad.replace("\n", "\n    ") + "\n")
    print("Good:\n    " + match.good.replace("\n", "\n    "))
    return 0
