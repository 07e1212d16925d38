// A Go program on the native provider: a repository connection, a production build trigger with its
// build variables (one a Pulumi secret), a search instance, and two functions (the account's build
// tokens, a domain's availability), run in this process through Pulumi's Automation API.
//
//	go run . up|preview|refresh|destroy [--refresh] [--expect-no-changes]
//	         [--config KEY=VALUE]... [--secret KEY=VALUE]... [--stack NAME]
//
// The stack's project files (Pulumi.yaml, Pulumi.<stack>.yaml) are kept in the current folder. The
// engine finds the provider plugin pulumi-resource-account-api on PATH, and the provider reads
// ACCOUNT_API_BASE_URL, ACCOUNT_API_ACCOUNT_ID and ACCOUNT_API_TOKEN (or the stack's account-api:*
// config). The last line printed on stdout is the operation's outcome as JSON: the change counts and
// the stack outputs (secrets masked); the engine's own output goes to stderr.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/example/pulumi-account-api/sdk-gen/go/accountapi"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

const project = "account-api-go-example"

func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	buildCommand := cfg.Get("buildCommand")
	if buildCommand == "" {
		buildCommand = "npm run build"
	}
	maxResults := cfg.GetInt("maxNumResults")
	if maxResults == 0 {
		maxResults = 10
	}
	apiKey, err := cfg.TrySecret("apiKey")
	if err != nil {
		apiKey = pulumi.ToSecret(pulumi.String("not-a-real-key")).(pulumi.StringOutput)
	}

	repo, err := accountapi.NewRepoConnection(ctx, "shop-repo", &accountapi.RepoConnectionArgs{
		ProviderType:        pulumi.String("github"),
		ProviderAccountId:   pulumi.String("acme"),
		ProviderAccountName: pulumi.String("Acme"),
		RepoId:              pulumi.String("4242"),
		RepoName:            pulumi.String("shop"),
	})
	if err != nil {
		return err
	}
	// A token made in the dashboard; the function is a read, so it answers on preview too.
	tokens := accountapi.BuildTokensOutput(ctx, accountapi.BuildTokensOutputArgs{})
	trigger, err := accountapi.NewBuildTrigger(ctx, "prod", &accountapi.BuildTriggerArgs{
		ScriptName:         pulumi.String("shop"),
		Kind:               accountapi.BuildTriggerKindProduction,
		RepoConnectionUuid: repo.RepoConnectionUuid,
		BuildTokenUuid:     tokens.Index(pulumi.Int(0)).BuildTokenUuid(),
		BuildCommand:       pulumi.String(buildCommand),
	})
	if err != nil {
		return err
	}
	_, err = accountapi.NewTriggerEnvVars(ctx, "prod-vars", &accountapi.TriggerEnvVarsArgs{
		TriggerUuid: trigger.TriggerUuid,
		Variables: accountapi.TriggerEnvVarsVariablesMap{
			"NODE_ENV": accountapi.TriggerEnvVarsVariablesArgs{Value: pulumi.String("production")},
			"API_KEY":  accountapi.TriggerEnvVarsVariablesArgs{Value: apiKey, IsSecret: pulumi.Bool(true)},
		},
	})
	if err != nil {
		return err
	}
	docs, err := accountapi.NewSearchInstance(ctx, "docs", &accountapi.SearchInstanceArgs{
		InstanceId:    pulumi.String("shop-docs"),
		Type:          accountapi.SearchInstanceTypeR2,
		Source:        pulumi.String("acme-docs"),
		MaxNumResults: pulumi.Int(maxResults),
	})
	if err != nil {
		return err
	}
	domain := accountapi.CheckDomainOutput(ctx, accountapi.CheckDomainOutputArgs{
		DomainName: pulumi.String("acme-shop.com"),
	})

	ctx.Export("triggerUuid", trigger.TriggerUuid)
	ctx.Export("buildCommand", trigger.BuildCommand)
	ctx.Export("searchInstance", docs.ID())
	ctx.Export("domainRegistrable", domain.Registrable())
	return nil
}

// pairs is a repeatable KEY=VALUE flag.
type pairs map[string]string

func (p pairs) String() string { return fmt.Sprint(map[string]string(p)) }

func (p pairs) Set(s string) error {
	key, value, found := strings.Cut(s, "=")
	if !found || key == "" {
		return fmt.Errorf("expected KEY=VALUE, got %q", s)
	}
	p[key] = value
	return nil
}

type outcome struct {
	Operation string         `json:"operation"`
	Changes   map[string]int `json:"changes"`
	Outputs   map[string]any `json:"outputs"`
}

func run(ctx context.Context, operation string, args []string) (*outcome, error) {
	flags := flag.NewFlagSet(operation, flag.ContinueOnError)
	refresh := flags.Bool("refresh", false, "refresh before up or preview")
	expectNoChanges := flags.Bool("expect-no-changes", false, "fail if anything would change")
	stackName := flags.String("stack", "dev", "the stack's name")
	plain, secret := pairs{}, pairs{}
	flags.Var(plain, "config", "KEY=VALUE to set in the stack's config (repeatable)")
	flags.Var(secret, "secret", "KEY=VALUE to set as a secret in the stack's config (repeatable)")
	if err := flags.Parse(args); err != nil {
		return nil, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	stack, err := auto.UpsertStackInlineSource(ctx, *stackName, project, program,
		auto.WorkDir(cwd), auto.Project(workspace.Project{Name: project, Runtime: workspace.NewProjectRuntimeInfo("go", nil)}))
	if err != nil {
		return nil, err
	}
	for k, v := range plain {
		if err := stack.SetConfig(ctx, k, auto.ConfigValue{Value: v}); err != nil {
			return nil, err
		}
	}
	for k, v := range secret {
		if err := stack.SetConfig(ctx, k, auto.ConfigValue{Value: v, Secret: true}); err != nil {
			return nil, err
		}
	}

	out := &outcome{Operation: operation, Changes: map[string]int{}, Outputs: map[string]any{}}
	var outputs auto.OutputMap
	var changes *map[string]int
	switch operation {
	case "up":
		opts := []optup.Option{optup.ProgressStreams(os.Stderr), optup.ErrorProgressStreams(os.Stderr)}
		if *refresh {
			opts = append(opts, optup.Refresh())
		}
		if *expectNoChanges {
			opts = append(opts, optup.ExpectNoChanges())
		}
		res, err := stack.Up(ctx, opts...)
		if err != nil {
			return nil, err
		}
		changes, outputs = res.Summary.ResourceChanges, res.Outputs
	case "preview":
		opts := []optpreview.Option{optpreview.ProgressStreams(os.Stderr), optpreview.ErrorProgressStreams(os.Stderr)}
		if *refresh {
			opts = append(opts, optpreview.Refresh())
		}
		if *expectNoChanges {
			opts = append(opts, optpreview.ExpectNoChanges())
		}
		res, err := stack.Preview(ctx, opts...)
		if err != nil {
			return nil, err
		}
		for op, n := range res.ChangeSummary {
			out.Changes[string(op)] = n
		}
	case "refresh":
		opts := []optrefresh.Option{optrefresh.ProgressStreams(os.Stderr), optrefresh.ErrorProgressStreams(os.Stderr)}
		if *expectNoChanges {
			opts = append(opts, optrefresh.ExpectNoChanges())
		}
		res, err := stack.Refresh(ctx, opts...)
		if err != nil {
			return nil, err
		}
		changes = res.Summary.ResourceChanges
	case "destroy":
		res, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stderr), optdestroy.ErrorProgressStreams(os.Stderr))
		if err != nil {
			return nil, err
		}
		changes = res.Summary.ResourceChanges
	default:
		return nil, fmt.Errorf("unknown operation %q: up, preview, refresh or destroy", operation)
	}
	if changes != nil {
		for op, n := range *changes {
			out.Changes[op] = n
		}
	}
	if outputs == nil {
		if outputs, err = stack.Outputs(ctx); err != nil {
			return nil, err
		}
	}
	for k, v := range outputs {
		if v.Secret {
			out.Outputs[k] = "[secret]"
		} else {
			out.Outputs[k] = v.Value
		}
	}
	return out, nil
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go run . up|preview|refresh|destroy [--refresh] [--expect-no-changes] [--config K=V] [--secret K=V] [--stack NAME]")
		os.Exit(2)
	}
	out, err := run(context.Background(), os.Args[1], os.Args[2:])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	line, err := json.Marshal(out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(string(line))
}
