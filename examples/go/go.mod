module github.com/example/pulumi-account-api/examples/go

go 1.25

require (
	github.com/example/pulumi-account-api/sdk-gen/go v0.0.0
	github.com/pulumi/pulumi/sdk/v3 v3.259.0
)

// The generated SDK is in this repository (sdk-gen/go); outside it, point this at your checkout.
replace github.com/example/pulumi-account-api/sdk-gen/go => ../../sdk-gen/go
