// Command codegen turns a Pulumi package schema (the JSON `pulumi package get-schema` prints) into
// SDKs for Python, Go and .NET, without `pulumi package gen-sdk` (which needs each language's host
// plugin, and none can be downloaded here). It calls the generators the language hosts themselves
// call: pkg/v3's codegen/python and codegen/go, and pulumi-language-dotnet's codegen.
//
//	codegen --schema schema.json --out DIR --lang python|go|dotnet|all [--check]
//
// Each language is written to DIR/<lang>/, which is replaced as a whole (a file the schema no longer
// produces disappears). With --check nothing is written: the command exits 1 and names every file of
// DIR/<lang>/ that is missing, stale or extra. The output depends only on the schema's bytes.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/blang/semver"
	dotnetgen "github.com/pulumi/pulumi-dotnet/pulumi-language-dotnet/v3/codegen"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generators write into every file's "do not edit" header.
const tool = "pulumi-account-api codegen"

var languages = []string{"python", "go", "dotnet"}

func main() {
	schemaPath := flag.String("schema", "", "the package schema (JSON)")
	out := flag.String("out", "", "the folder that holds (or receives) <lang>/ for each language")
	lang := flag.String("lang", "all", "python, go, dotnet or all (a comma-separated list also works)")
	check := flag.Bool("check", false, "write nothing; exit 1 naming the files of OUT/<lang> that differ")
	flag.Parse()
	if *schemaPath == "" || *out == "" {
		fail("usage: codegen --schema schema.json --out DIR --lang python|go|dotnet|all [--check]")
	}
	langs, err := parseLangs(*lang)
	if err != nil {
		fail(err.Error())
	}
	raw, err := os.ReadFile(*schemaPath)
	if err != nil {
		fail(fmt.Sprintf("cannot read the schema: %v", err))
	}

	stale := 0
	for _, l := range langs {
		started := time.Now()
		files, err := generate(raw, l)
		if err != nil {
			fail(fmt.Sprintf("%s: %v", l, err))
		}
		dir := filepath.Join(*out, l)
		if *check {
			diffs, err := compare(files, dir)
			if err != nil {
				fail(fmt.Sprintf("%s: %v", l, err))
			}
			for _, d := range diffs {
				fmt.Printf("%s\n", d)
			}
			stale += len(diffs)
			say("%s: checked %d files against %s in %d ms (%d differ)", l, len(files), dir, time.Since(started).Milliseconds(), len(diffs))
			continue
		}
		if err := writeTree(files, dir); err != nil {
			fail(fmt.Sprintf("%s: %v", l, err))
		}
		say("%s: wrote %d files (%d bytes) to %s in %d ms", l, len(files), size(files), dir, time.Since(started).Milliseconds())
	}
	if stale > 0 {
		say("%d files differ from what the schema generates: regenerate them (scripts/gen-sdk.sh)", stale)
		os.Exit(1)
	}
}

func parseLangs(s string) ([]string, error) {
	if s == "all" {
		return languages, nil
	}
	var langs []string
	for _, l := range strings.Split(s, ",") {
		known := false
		for _, k := range languages {
			known = known || k == l
		}
		if !known {
			return nil, fmt.Errorf("unknown language %q: use python, go, dotnet or all", l)
		}
		langs = append(langs, l)
	}
	return langs, nil
}

// generate binds the schema afresh for each language (the generators record their language
// options on the bound package) and returns the files by path relative to OUT/<lang>.
func generate(raw []byte, lang string) (map[string][]byte, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("the schema is not valid JSON: %w", err)
	}
	if err := checkLogo(spec.LogoURL); err != nil {
		return nil, err
	}
	loader := noPlugins{}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("binding the schema: %w", err)
	}
	if diags.HasErrors() {
		// diags.Error() names only the first of them: list each, with where it is.
		var lines []string
		for _, d := range diags {
			line := "  " + d.Summary
			if d.Detail != "" {
				line += ": " + d.Detail
			}
			if d.Subject != nil {
				line += " (" + d.Subject.String() + ")"
			}
			lines = append(lines, line)
		}
		return nil, fmt.Errorf("the schema does not bind (%d diagnostics):\n%s", len(diags), strings.Join(lines, "\n"))
	}
	switch lang {
	case "python":
		return pygen.GeneratePackage(tool, pkg, nil, loader)
	case "go":
		files, err := gogen.GeneratePackage(tool, pkg, nil)
		if err != nil {
			return nil, err
		}
		return files, nil
	case "dotnet":
		// The .NET generator downloads pkg.LogoURL into logo.png (and a logo on GitHub when there is
		// none), and nothing can be downloaded here: serve it from loopback for the call. The URL
		// appears in no generated file, so its port does not make the output vary.
		logo, err := logoBytes(spec.LogoURL)
		if err != nil {
			return nil, err
		}
		stop, url, err := serveLogo(logo)
		if err != nil {
			return nil, err
		}
		defer stop()
		pkg.LogoURL = url
		return dotnetgen.GeneratePackage(tool, pkg, nil, nil)
	}
	return nil, fmt.Errorf("unknown language %q", lang)
}

// checkLogo refuses a logoUrl that is not loopback: the .NET generator would fetch it, and a build
// that reaches the network is neither reproducible nor possible here.
func checkLogo(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		host := u.Hostname()
		if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
			return nil
		}
	}
	return fmt.Errorf("logoUrl %q is not a loopback http(s) URL: the .NET generator would download it; leave logoUrl out of the schema (docs/sdk-gen.md)", raw)
}

// logoBytes is the schema's loopback logo, or a 64x64 square drawn here (png encoding is
// deterministic, so logo.png is the same bytes every run).
func logoBytes(logoURL string) ([]byte, error) {
	if logoURL != "" {
		resp, err := http.Get(logoURL) //nolint:gosec // checkLogo allowed loopback only
		if err != nil {
			return nil, fmt.Errorf("fetching the loopback logoUrl: %w", err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		if _, err := b.ReadFrom(resp.Body); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			img.Set(x, y, color.NRGBA{R: 0x4d, G: 0x5b, B: 0xd9, A: 0xff})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func serveLogo(logo []byte) (func(), string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("cannot listen on loopback to serve the logo: %w", err)
	}
	srv := &http.Server{
		Handler:           http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(logo) }),
		ReadHeaderTimeout: 5 * time.Second,
	}
	go func() { _ = srv.Serve(ln) }()
	return func() { _ = srv.Close() }, "http://" + ln.Addr().String() + "/logo.png", nil
}

// noPlugins is the loader the binder and the Python generator get: the schema may reference no other
// package, because resolving one would start (or download) its plugin.
type noPlugins struct{}

func (noPlugins) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, refused(name)
}

func (noPlugins) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, refused(d.Name)
}

func (noPlugins) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, refused(name)
}

func (noPlugins) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, refused(d.Name)
}

func refused(name string) error {
	return fmt.Errorf("the schema references package %q: codegen loads no plugins, so a schema may only use its own types", name)
}

// writeTree replaces dir with exactly files: it writes a sibling folder and swaps it in, so a failed
// run leaves the previous SDK whole and a file the schema no longer produces does not linger.
func writeTree(files map[string][]byte, dir string) error {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, p := range sortedPaths(files) {
		target := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, files[p], 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	old := tmp + ".old"
	if _, err := os.Stat(dir); err == nil {
		if err := os.Rename(dir, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	return os.RemoveAll(old)
}

// compare names each file of dir that differs from files: "stale", "missing" or "extra".
func compare(files map[string][]byte, dir string) ([]string, error) {
	var diffs []string
	seen := map[string]bool{}
	if _, err := os.Stat(dir); err == nil {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			seen[rel] = true
			want, ok := files[rel]
			if !ok {
				diffs = append(diffs, "extra:   "+filepath.Join(dir, rel))
				return nil
			}
			have, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if !bytes.Equal(have, want) {
				diffs = append(diffs, "stale:   "+filepath.Join(dir, rel))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, p := range sortedPaths(files) {
		if !seen[p] {
			diffs = append(diffs, "missing: "+filepath.Join(dir, p))
		}
	}
	sort.Strings(diffs)
	return diffs, nil
}

func sortedPaths(files map[string][]byte) []string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

func size(files map[string][]byte) int {
	n := 0
	for _, f := range files {
		n += len(f)
	}
	return n
}

func say(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[codegen] "+format+"\n", args...)
}

func fail(msg string) {
	fmt.Fprintf(os.Stderr, "[codegen] ERROR: %s\n", msg)
	os.Exit(2)
}
