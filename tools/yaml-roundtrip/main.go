// yaml-roundtrip loads Pulumi YAML programs with pulumi-yaml's own loader (pulumiyaml.LoadYAMLBytes,
// the parser `pulumi up` runs in a `runtime: yaml` project) and the CLI's own project loader
// (workspace.LoadProjectBytes), and prints what each program holds, so that a test can check that
// every string a writer put in reads back as exactly that string.
//
// Input on stdin: a JSON array of {"id": string, "source": string, "project"?: string}, one entry per
// program (one process for a whole batch: loading the tool costs more than parsing). `source` is the
// program (Pulumi.yaml, or Main.yaml, which pulumi-yaml reads instead when it is there); `project` the
// Pulumi.yaml the CLI reads when the program is in Main.yaml (default: `source`).
// Output on stdout: a JSON array of {"id", "errors", "warnings", "project", "program"}, in input order.
// A value is printed tagged, so that nothing in it can pass for something else:
//
//	{"s": "text"} {"n": 1} {"b": true} {"null": true} {"list": [...]}
//	{"obj": [[key, value], ...]}            keys in source order, duplicates kept
//	{"ref": "config-key"}                   a reference (`${config-key}`)
//	{"other": "description"}                anything else (an interpolation, a builtin): not inert
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi-yaml/pkg/pulumiyaml"
	"github.com/pulumi/pulumi-yaml/pkg/pulumiyaml/ast"
	"github.com/pulumi/pulumi-yaml/pkg/pulumiyaml/syntax"
	"github.com/pulumi/pulumi/sdk/v3/go/common/encoding"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

type input struct {
	ID      string  `json:"id"`
	Source  string  `json:"source"`
	Project *string `json:"project"`
}

type configParam struct {
	Key    string `json:"key"`
	Type   string `json:"type"`
	Secret bool   `json:"secret"`
}

type resource struct {
	Name       string  `json:"name"`
	Type       string  `json:"type"`
	Properties any     `json:"properties"`
	Import     *string `json:"import"`
}

type program struct {
	Name      string        `json:"name"`
	Config    []configParam `json:"config"`
	Resources []resource    `json:"resources"`
}

type output struct {
	ID       string   `json:"id"`
	Errors   []string `json:"errors"`
	Warnings []string `json:"warnings"`
	// The project as the CLI reads Pulumi.yaml (its name), or null when it refuses the file.
	Project *string  `json:"project"`
	Program *program `json:"program"`
}

func value(x ast.Expr) any {
	switch x := x.(type) {
	case nil:
		return map[string]any{"other": "missing"}
	case *ast.StringExpr:
		return map[string]any{"s": x.Value}
	case *ast.NumberExpr:
		return map[string]any{"n": x.Value}
	case *ast.BooleanExpr:
		return map[string]any{"b": x.Value}
	case *ast.NullExpr:
		return map[string]any{"null": true}
	case *ast.ListExpr:
		items := make([]any, 0, len(x.Elements))
		for _, e := range x.Elements {
			items = append(items, value(e))
		}
		return map[string]any{"list": items}
	case *ast.ObjectExpr:
		pairs := make([]any, 0, len(x.Entries))
		for _, e := range x.Entries {
			pairs = append(pairs, []any{value(e.Key), value(e.Value)})
		}
		return map[string]any{"obj": pairs}
	case *ast.SymbolExpr:
		return map[string]any{"ref": x.Property.String()}
	default:
		return map[string]any{"other": fmt.Sprintf("%T", x)}
	}
}

func properties(d ast.PropertyMapOrExprDecl) any {
	if d.PropertyMap == nil {
		if d.Expr == nil {
			return map[string]any{"obj": []any{}}
		}
		return value(d.Expr)
	}
	pairs := make([]any, 0, len(d.PropertyMap.Entries))
	for _, e := range d.PropertyMap.Entries {
		pairs = append(pairs, []any{map[string]any{"s": e.Key.Value}, value(e.Value)})
	}
	return map[string]any{"obj": pairs}
}

func messages(diags syntax.Diagnostics, errors bool) []string {
	out := []string{}
	for _, d := range diags {
		if (d.Severity == hcl.DiagError) == errors {
			out = append(out, d.Error())
		}
	}
	return out
}

func load(in input) output {
	out := output{ID: in.ID, Errors: []string{}, Warnings: []string{}}
	project := in.Source
	if in.Project != nil {
		project = *in.Project
	}
	if p, err := workspace.LoadProjectBytes([]byte(project), "Pulumi.yaml", encoding.YAML); err != nil {
		out.Errors = append(out.Errors, "project: "+err.Error())
	} else {
		name := p.Name.String()
		out.Project = &name
	}
	t, diags, err := pulumiyaml.LoadYAMLBytes("Pulumi.yaml", []byte(in.Source))
	if err != nil {
		out.Errors = append(out.Errors, err.Error())
		return out
	}
	out.Errors = append(out.Errors, messages(diags, true)...)
	out.Warnings = append(out.Warnings, messages(diags, false)...)
	if t == nil || diags.HasErrors() {
		return out
	}
	prog := program{Name: t.Name.GetValue(), Config: []configParam{}, Resources: []resource{}}
	for _, c := range t.Config.Entries {
		p := configParam{Key: c.Key.Value}
		if c.Value != nil {
			p.Type = c.Value.Type.GetValue()
			p.Secret = c.Value.Secret != nil && c.Value.Secret.Value
		}
		prog.Config = append(prog.Config, p)
	}
	for _, r := range t.Resources.Entries {
		res := resource{Name: r.Key.Value, Type: r.Value.Type.GetValue(), Properties: properties(r.Value.Properties)}
		if r.Value.Options.Import != nil {
			v := r.Value.Options.Import.Value
			res.Import = &v
		}
		prog.Resources = append(prog.Resources, res)
	}
	out.Program = &prog
	return out
}

func main() {
	raw, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reading stdin:", err)
		os.Exit(2)
	}
	var inputs []input
	if err := json.Unmarshal(raw, &inputs); err != nil {
		fmt.Fprintln(os.Stderr, "stdin is not a JSON array of {id, source}:", err)
		os.Exit(2)
	}
	outputs := make([]output, 0, len(inputs))
	for _, in := range inputs {
		outputs = append(outputs, load(in))
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(outputs); err != nil {
		fmt.Fprintln(os.Stderr, "writing stdout:", err)
		os.Exit(2)
	}
}
