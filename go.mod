module github.com/agentpet/rules_pet

go 1.19

require github.com/google/go-cmp v0.6.0

require golang.org/x/image v0.24.0

require github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
