package awsconf

import (
	"context"
	"strings"
	"testing"
)

func TestLoadConfigRegion(t *testing.T) {
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_PROFILE", "")
	if _, err := LoadConfig(context.Background(), Options{}); err == nil || !strings.Contains(err.Error(), "--region") {
		t.Fatalf("no region: got %v, want an error naming --region", err)
	}
	cfg, err := LoadConfig(context.Background(), Options{Region: "eu-west-1"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Region != "eu-west-1" {
		t.Fatalf("region %q, want eu-west-1", cfg.Region)
	}
}
