"""A Python program on the native provider: a repository connection, a production build trigger
with its build variables (one a Pulumi secret), a search instance, and two functions (the account's
build tokens, a domain's availability), run in this process through Pulumi's Automation API.

    python main.py up|preview|refresh|destroy [--refresh] [--expect-no-changes]
                   [--config KEY=VALUE]... [--secret KEY=VALUE]... [--stack NAME]

The stack's project files (Pulumi.yaml, Pulumi.<stack>.yaml) are kept in the current folder. The
engine finds the provider plugin `pulumi-resource-account-api` on PATH, and the provider reads
ACCOUNT_API_BASE_URL, ACCOUNT_API_ACCOUNT_ID and ACCOUNT_API_TOKEN (or the stack's `account-api:*`
config). The last line printed on stdout is the operation's outcome as JSON: the change counts and
the stack outputs (secrets masked); the engine's own output goes to stderr.
"""

import argparse
import json
import os
import sys

import pulumi
import pulumi_account_api as account_api
from pulumi import automation as auto

PROJECT = "account-api-python-example"


def program() -> None:
    config = pulumi.Config()
    build_command = config.get("buildCommand") or "npm run build"
    max_results = config.get_int("maxNumResults") or 10
    api_key = config.get_secret("apiKey") or pulumi.Output.secret("not-a-real-key")

    repo = account_api.RepoConnection(
        "shop-repo",
        provider_type="github",
        provider_account_id="acme",
        provider_account_name="Acme",
        repo_id="4242",
        repo_name="shop",
    )
    # A token made in the dashboard; the function is a read, so it answers on preview too.
    tokens = account_api.build_tokens_output()
    trigger = account_api.BuildTrigger(
        "prod",
        script_name="shop",
        kind="production",
        repo_connection_uuid=repo.repo_connection_uuid,
        build_token_uuid=tokens.apply(lambda found: found[0]["buildTokenUuid"]),
        build_command=build_command,
    )
    account_api.TriggerEnvVars(
        "prod-vars",
        trigger_uuid=trigger.trigger_uuid,
        variables={
            "NODE_ENV": account_api.TriggerEnvVarsVariablesArgs(value="production"),
            "API_KEY": account_api.TriggerEnvVarsVariablesArgs(value=api_key, is_secret=True),
        },
    )
    docs = account_api.SearchInstance(
        "docs",
        instance_id="shop-docs",
        type="r2",
        source="acme-docs",
        max_num_results=max_results,
    )
    domain = account_api.check_domain_output(domain_name="acme-shop.com")

    pulumi.export("triggerUuid", trigger.trigger_uuid)
    pulumi.export("buildCommand", trigger.build_command)
    pulumi.export("searchInstance", docs.id)
    pulumi.export("domainRegistrable", domain.registrable)


def parse_pairs(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            sys.exit(f"expected KEY=VALUE, got {pair!r}")
        out[key] = value
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="Run the example's stack through the Automation API.")
    parser.add_argument("operation", choices=["up", "preview", "refresh", "destroy"])
    parser.add_argument("--refresh", action="store_true", help="refresh before up or preview")
    parser.add_argument("--expect-no-changes", action="store_true", help="fail if anything would change")
    parser.add_argument("--config", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--secret", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--stack", default="dev")
    args = parser.parse_args()

    stack = auto.create_or_select_stack(
        stack_name=args.stack,
        project_name=PROJECT,
        program=program,
        opts=auto.LocalWorkspaceOptions(
            work_dir=os.getcwd(),
            project_settings=auto.ProjectSettings(name=PROJECT, runtime="python"),
        ),
    )
    for key, value in parse_pairs(args.config).items():
        stack.set_config(key, auto.ConfigValue(value=value))
    for key, value in parse_pairs(args.secret).items():
        stack.set_config(key, auto.ConfigValue(value=value, secret=True))

    def echo(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    common = {"on_output": echo, "color": "never"}
    outputs: dict[str, auto.OutputValue] = {}
    if args.operation == "up":
        up = stack.up(refresh=args.refresh, expect_no_changes=args.expect_no_changes, **common)
        changes, outputs = up.summary.resource_changes, up.outputs
    elif args.operation == "preview":
        preview = stack.preview(refresh=args.refresh, expect_no_changes=args.expect_no_changes, **common)
        changes = preview.change_summary
    elif args.operation == "refresh":
        changes = stack.refresh(expect_no_changes=args.expect_no_changes, **common).summary.resource_changes
    else:
        changes = stack.destroy(**common).summary.resource_changes
        outputs = {}
    if args.operation != "up":
        outputs = stack.outputs()

    print(
        json.dumps(
            {
                "operation": args.operation,
                "changes": {str(getattr(k, "value", k)): v for k, v in (changes or {}).items()},
                "outputs": {k: "[secret]" if v.secret else v.value for k, v in outputs.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
