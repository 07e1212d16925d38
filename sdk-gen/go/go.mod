module github.com/example/pulumi-account-api/sdk-gen/go

go 1.25

require github.com/pulumi/pulumi/sdk/v3 v3.256.0
