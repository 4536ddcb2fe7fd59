"""The MCP server driven by the protocol's official Python SDK, which checks every tool's
structured content against the tool's `outputSchema` (`ClientSession.call_tool` raises on a
mismatch), on a copy of the broker fixture whose preprocessor prints during `supports`, then on
the OpenTelemetry fixture, whose twelve providers are known by their reports (the report in an
answer, pages of rules).

Run by `.ci/run` in a virtual environment with the SDK pinned:
    python validate.py path/to/mdbook-contract
"""

import asyncio
import json
import pathlib
import shutil
import sys
import tempfile

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

FIXTURE = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "broker"
OTEL = FIXTURE.parent / "otel"

# On the OpenTelemetry book: a provider known by its report, a second page of its rules, and
# every provider's rules waiting for a test, a second page of them.
OTEL_CALLS = [
    ("contract_provider", {"name": "go"}),
    ("contract_provider", {"name": "go", "cursor": "100"}),
    ("contract_uncovered", {}),
    ("contract_uncovered", {"cursor": "100", "page_size": 4096}),
    ("contract_rules", {"provider": "kotlin", "status": "declared"}),
]

CALLS = [
    ("contract_overview", {}),
    ("contract_axis", {"code": "delivery"}),
    ("contract_rule", {"id": "r[verify publish.reject-oversized]"}),
    ("contract_rule", {"id": "ordering.per-key"}),
    ("contract_rules", {}),
    ("contract_rules", {"provider": "redis-streams", "status": "profile-unknown"}),
    ("contract_rules", {"status": "failed"}),
    ("contract_provider", {"name": "kafka"}),
    ("contract_provider", {"name": "redis-streams"}),
    ("contract_brief", {"provider": "redis-streams"}),
    ("contract_brief", {"provider": "redis-streams", "section": "rules"}),
    ("contract_check", {}),
    ("contract_check", {"path": "contract.md"}),
    ("contract_uncovered", {}),
    ("contract_uncovered", {"provider": "redis-streams"}),
    ("contract_new_spec", {"name": "gcp-pubsub"}),
    ("contract_provider", {"name": "gcp-pubsub"}),
]


def book(root: pathlib.Path) -> None:
    shutil.copytree(FIXTURE, root, dirs_exist_ok=True)
    toml = root / "book.toml"
    toml.write_text(
        toml.read_text()
        + 'test-results = ["results/conformance.xml", "results/adapters.json"]\n'
    )
    script = root / "mermaid.py"
    script.write_text(
        script.read_text().replace(
            '    sys.exit(0)\n', '    print("PP-STDOUT", flush=True)\n    sys.exit(0)\n', 1
        )
    )


async def validated(session: ClientSession, calls) -> None:
    """Each call's structured content checked by the SDK, and equal to its first block."""
    for name, arguments in calls:
        # The SDK validates the structured content against the output schema.
        result = await session.call_tool(name, arguments)
        assert not result.is_error, f"{name} {arguments}: {result.content}"
        first = json.loads(result.content[0].text)
        assert first == result.structured_content, f"{name}: the first block is not the structured content"
        print(f"{name} {json.dumps(arguments)}: valid, {len(result.content[0].text)} bytes")


async def otel(binary: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        shutil.copytree(OTEL, root, dirs_exist_ok=True)
        server = StdioServerParameters(command=binary, args=["mcp", str(root)])
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await validated(session, OTEL_CALLS)


async def main(binary: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        book(root)
        server = StdioServerParameters(command=binary, args=["mcp", str(root)])
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = (await session.list_tools()).tools
                listed = {tool.name for tool in tools}
                called = {name for name, _ in CALLS}
                assert listed == called, f"tools listed {sorted(listed)}, called {sorted(called)}"
                for tool in tools:
                    assert tool.output_schema, f"{tool.name} has no outputSchema"
                await validated(session, CALLS)
                refused = await session.call_tool("contract_rule", {"id": "publish.akc"})
                assert refused.is_error and "did you mean" in refused.content[0].text
    await otel(binary)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
