module github.com/agentpet/rules_pet/gazelle

go 1.21

require github.com/agentpet/rules_pet v0.0.0

require (
	github.com/bazelbuild/bazel-gazelle v0.39.1
	github.com/bazelbuild/buildtools v0.0.0-20240827154017-dd10159baa91 // indirect
	golang.org/x/mod v0.20.0 // indirect
	golang.org/x/sys v0.25.0 // indirect
	golang.org/x/tools/go/vcs v0.1.0-deprecated // indirect
)

replace github.com/agentpet/rules_pet => ../
