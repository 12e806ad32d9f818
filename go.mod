module github.com/agentpet/rules_pet

go 1.19
