"""Real-client check of `cartera mcp` with the Python `mcp` package 2.3.0 (mcp.md §7.3).

Launches the server through the package's high-level stdio client: a metered session in the
client's default negotiation mode (it probes `server/discover`, gets -32601 and falls back to
`initialize`), the same session in its legacy handshake mode, then a local session. Every
session also lists and reads the resources and lists and fills in the prompts. Exits
non-zero on the first failed check and prints the server's stderr.

Usage: python .ci/mcp_client_check.py --binary target/release/cartera --ledger LEDGER
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile

from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client

CANONICAL = [
    "portfolio_summary", "fiscal_integrity", "fiscal_integrity_rows", "token_history",
    "token_lots", "asset_allocation", "risk_metrics", "kpis", "drawdown_curve",
    "performance_history", "volatility_heatmap", "spanish_tax_report", "live_prices",
    "holding_detail", "account_holdings", "tax_year_comparison", "data_gaps", "explain_metric",
    "scenario_position_value", "breakeven_price", "derivatives_pnl", "custody_locations",
    "scenario_portfolio_shock", "concentration_risk", "tx_search",
]
CORE = [
    "portfolio_summary", "fiscal_integrity", "token_history", "asset_allocation", "kpis",
    "spanish_tax_report", "live_prices", "holding_detail", "account_holdings",
    "tax_year_comparison", "data_gaps", "explain_metric", "scenario_position_value",
    "breakeven_price",
]
VERSIONS = {"2025-11-25", "2025-06-18", "2025-03-26"}
RESOURCES = ["cartera://ledger/overview", "cartera://ledger/integrity", "cartera://metrics/glossary"]
PROMPTS = ["yearly-filing", "data-gap-review", "portfolio-review"]


class CheckFailed(Exception):
    pass


def check(condition: bool, what: str) -> None:
    if not condition:
        raise CheckFailed(what)


def valid_calls(year_a: int, year_b: int) -> list[tuple[str, dict]]:
    empty = [
        "portfolio_summary", "fiscal_integrity", "asset_allocation", "risk_metrics", "kpis",
        "data_gaps", "derivatives_pnl", "custody_locations", "concentration_risk",
    ]
    calls = {name: {} for name in empty}
    calls.update({
        "fiscal_integrity_rows": {"qualityFlag": "MISSING_PRICE"},
        "token_history": {"symbol": "btc"},
        "token_lots": {"symbol": "BTC", "page": 0},
        "drawdown_curve": {"days": 365},
        "performance_history": {"days": 90},
        "volatility_heatmap": {"year": year_b},
        "spanish_tax_report": {"year": year_b},
        "live_prices": {"symbols": ["BTC", "NOPE"]},
        "holding_detail": {"symbol": "eth"},
        "account_holdings": {"accountName": "kraken"},
        "tax_year_comparison": {"yearA": year_a, "yearB": year_b},
        "explain_metric": {"metric": "hhi"},
        "scenario_position_value": {"symbol": "BTC", "hypotheticalPrice": "70000"},
        "breakeven_price": {"symbol": "BTC"},
        "scenario_portfolio_shock": {"shock": {"kind": "uniform", "pct": "-50"}},
        "tx_search": {"symbol": "BTC", "types": ["BUY", "SELL"]},
    })
    return [(name, calls[name]) for name in CANONICAL]


def invalid_calls(year_b: int) -> list[tuple[str, dict]]:
    return [
        ("holding_detail", {"symbol": "BTC EUR"}),
        ("tx_search", {"page": 0}),
        ("tax_year_comparison", {"yearA": year_b, "yearB": year_b}),
        ("portfolio_summary", {"accountId": "x"}),
        ("scenario_portfolio_shock", {"shock": {"kind": "uniform", "pct": "5000"}}),
        ("scenario_position_value", {"symbol": "BTC", "hypotheticalPrice": "1e5"}),
    ]


def first_text(result) -> str:
    check(len(result.content) >= 1, "the result has a content block")
    block = result.content[0]
    check(getattr(block, "type", None) == "text", "the first content block is text")
    return block.text


async def expect_mcp_error(client: Client, name: str, code: int) -> None:
    try:
        await client.call_tool(name, {})
    except MCPError as error:
        check(error.code == code, f"{name}: MCP error code {error.code}, expected {code}")
        return
    raise CheckFailed(f"{name}: the client raised no MCP error")


def check_tools(tools, expected: list[str]) -> None:
    names = [tool.name for tool in tools]
    check(names == expected, f"list_tools names {names}")
    for tool in tools:
        check(tool.output_schema is not None, f"{tool.name}: output schema")
        check(tool.input_schema.get("additionalProperties") is False,
              f"{tool.name}: input schema closed")
        a = tool.annotations
        check(a is not None and bool(a.title), f"{tool.name}: annotations with a title")
        check(a.read_only_hint is True and a.destructive_hint is False
              and a.idempotent_hint is True and a.open_world_hint is False,
              f"{tool.name}: annotations {a}")


async def check_resources_and_prompts(client: Client, label: str, year: int) -> None:
    """The read-only resources and the prompts (issue 26): listed, read, filled in."""
    resources = (await client.list_resources()).resources
    check([str(r.uri) for r in resources] == RESOURCES, f"{label}: resources {resources}")
    templates = (await client.list_resource_templates()).resource_templates
    check([t.uri_template for t in templates] == ["cartera://tax/{year}"],
          f"{label}: resource templates {templates}")
    for uri in RESOURCES + [f"cartera://tax/{year}"]:
        contents = (await client.read_resource(uri)).contents
        check(len(contents) == 1 and str(contents[0].uri) == uri, f"{label}: {uri} contents")
        check(contents[0].mime_type == "application/json", f"{label}: {uri} mime type")
        value = json.loads(contents[0].text)
        if uri.endswith("glossary"):
            check(len(value.get("metrics", [])) == 17, f"{label}: {uri} holds 17 metrics")
        else:
            check(value.get("kind") in ("ok", "truncated"), f"{label}: {uri} kind {value.get('kind')}")
    try:
        await client.read_resource("cartera://nowhere")
    except MCPError as error:
        check(error.code == -32002, f"{label}: unknown resource code {error.code}")
    else:
        raise CheckFailed(f"{label}: an unknown resource raised no MCP error")
    prompts = (await client.list_prompts()).prompts
    check([p.name for p in prompts] == PROMPTS, f"{label}: prompts {prompts}")
    check([a.name for a in prompts[0].arguments or []] == ["year"], f"{label}: filing arguments")
    filing = await client.get_prompt("yearly-filing", {"year": str(year)})
    check(filing.messages[0].role == "user", f"{label}: filing role")
    check(f"spanish_tax_report with year {year}" in filing.messages[0].content.text,
          f"{label}: filing text names the year")
    for name in PROMPTS[1:]:
        got = await client.get_prompt(name)
        check(len(got.messages) == 1 and got.messages[0].content.text != "", f"{label}: {name}")
    try:
        await client.get_prompt("yearly-filing", {"year": "1999"})
    except MCPError as error:
        check(error.code == -32602, f"{label}: bad year code {error.code}")
    else:
        raise CheckFailed(f"{label}: a bad year raised no MCP error")


async def metered_session(args, mode: str, errlog) -> None:
    params = StdioServerParameters(command=args.binary, args=["mcp", "--ledger", args.ledger])
    async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:
        check(client.protocol_version in VERSIONS,
              f"{mode}: negotiated version {client.protocol_version}")
        check(client.server_info is not None and client.server_info.name == "cartera",
              f"{mode}: server name {client.server_info}")
        instructions = client.instructions or ""
        check(instructions != "", f"{mode}: instructions present")
        check("tax_year_comparison" in instructions, f"{mode}: instructions name the tools")
        check(re.search(r"\d", instructions) is None, f"{mode}: instructions hold no digit")

        listing = await client.list_tools()
        check_tools(listing.tools, CANONICAL)

        for name, arguments in valid_calls(args.year_a, args.year_b):
            try:
                result = await client.call_tool(name, arguments)
            except Exception as error:  # the client validates structuredContent and raises
                raise CheckFailed(f"{mode}: {name} {arguments} raised {error!r}") from error
            text = first_text(result)
            check(result.is_error is False, f"{mode}: {name} is_error: {text[:300]}")
            structured = result.structured_content
            check(isinstance(structured, dict) and structured.get("kind") == "ok",
                  f"{mode}: {name} kind {structured and structured.get('kind')}: {text[:300]}")
            check(json.loads(text) == structured, f"{mode}: {name} text copy equals structured")

        for name, arguments in invalid_calls(args.year_b):
            result = await client.call_tool(name, arguments)
            text = first_text(result)
            check(result.is_error is True, f"{mode}: {name} {arguments} is_error")
            check(result.structured_content is None, f"{mode}: {name} no structured content")
            check(text.startswith("INVALID_TOOL_INPUT"), f"{mode}: {name} {arguments}: {text}")

        await expect_mcp_error(client, "fees_paid", -32602)
        await check_resources_and_prompts(client, mode, args.year_b)


async def local_session(args, errlog) -> None:
    params = StdioServerParameters(
        command=args.binary,
        args=["mcp", "--ledger", args.ledger, "--profile", "local", "--context-window", "8192"],
    )
    async with Client(stdio_client(params, errlog=errlog)) as client:
        listing = await client.list_tools()
        check_tools(listing.tools, CORE)
        await expect_mcp_error(client, "risk_metrics", -32602)
        result = await client.call_tool("portfolio_summary", {})
        text = first_text(result)
        check(result.is_error is False, f"local: portfolio_summary is_error: {text[:300]}")
        kind = (result.structured_content or {}).get("kind")
        check(kind in ("ok", "truncated"), f"local: portfolio_summary kind {kind}")
        check(json.loads(text) == result.structured_content, "local: text copy equals structured")
        await check_resources_and_prompts(client, "local", args.year_b)


def describe(error: BaseException) -> str:
    """The leaf errors of an exception group (anyio wraps failures in task groups)."""
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(describe(inner) for inner in error.exceptions)
    return str(error) if isinstance(error, CheckFailed) else repr(error)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--ledger", required=True)
    parser.add_argument("--year-a", type=int, default=2022, help="the earlier disposal year")
    parser.add_argument("--year-b", type=int, default=2024, help="the later disposal year")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    args.ledger = os.path.abspath(args.ledger)

    with tempfile.NamedTemporaryFile("w+", suffix=".stderr.log") as errlog:
        sessions = [
            ("metered, default negotiation", metered_session(args, "auto", errlog)),
            ("metered, legacy handshake", metered_session(args, "legacy", errlog)),
            ("local", local_session(args, errlog)),
        ]
        for label, session in sessions:
            try:
                await session
            except Exception as error:
                for pending in sessions:
                    pending[1].close()
                errlog.flush()
                errlog.seek(0)
                print(f"MCP client check FAILED in the {label} session: {describe(error)}",
                      file=sys.stderr)
                print("--- server stderr ---", file=sys.stderr)
                print(errlog.read()[-20000:], file=sys.stderr)
                return 1
            print(f"ok: {label} session")
    print("MCP client check passed (mcp 2.3.0)")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
