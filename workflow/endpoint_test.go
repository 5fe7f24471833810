package workflow

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/sagemaker"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

func TestEndpointDeployDescribeDelete(t *testing.T) {
	url := motoEnv(t)
	envFile := filepath.Join(t.TempDir(), "container-env.json")
	if err := os.WriteFile(envFile, []byte(`{"MAX_QUEUE_DEPTH":"50"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	full := deployJob(url, "tts-cli", 1)
	full.Slots, full.Env, full.ContainerEnv = 2, []string{"THREADS=4"}, envFile
	out, err := deploy(full)
	if err != nil {
		t.Fatalf("deploy: %v\n%s", err, out)
	}
	for _, want := range []string{"create model", "create endpoint config", "create endpoint", "wait InService", "endpoint tts-cli created"} {
		if !strings.Contains(out, want) {
			t.Fatalf("deploy output lacks %q:\n%s", want, out)
		}
	}
	out, err = describe(url, "tts-cli", true)
	if err != nil {
		t.Fatal(err, out)
	}
	var info sagemaker.EndpointInfo
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatalf("describe --json: %v\n%s", err, out)
	}
	v := info.Variants[0]
	if info.Status != "InService" || v.Env["SLOTS"] != "2" || v.Env["THREADS"] != "4" || v.Env["MAX_QUEUE_DEPTH"] != "50" ||
		v.StartupTimeoutS != 600 || v.DownloadTimeoutS != 600 || v.Image != testImage {
		t.Fatalf("described %+v", info)
	}
	out, err = describe(url, "tts-cli", false)
	if err != nil || !strings.Contains(out, "env     MAX_QUEUE_DEPTH=50") || !strings.Contains(out, "autoscaling: none registered") {
		t.Fatalf("describe: %v\n%s", err, out)
	}

	// The same deploy again is a no-op; a changed one, as a dry run, shows the update.
	out, err = deploy(full)
	if err != nil || !strings.Contains(out, "unchanged") {
		t.Fatalf("repeat deploy: %v\n%s", err, out)
	}
	changed := deployJob(url, "tts-cli", 1)
	changed.Slots, changed.DryRun = 4, true
	out, err = deploy(changed)
	if err != nil || !strings.Contains(out, "would call sagemaker:CreateModel") || !strings.Contains(out, "would call sagemaker:UpdateEndpoint") {
		t.Fatalf("dry run: %v\n%s", err, out)
	}

	out, err = deleteEndpoint(url, "tts-cli", false)
	if err != nil || !strings.Contains(out, "endpoint tts-cli deleted") {
		t.Fatalf("delete: %v\n%s", err, out)
	}
	_, err = describe(url, "tts-cli", false)
	if !errors.Is(err, awsconf.ErrNotFound) || !strings.Contains(err.Error(), "not found in region us-east-1") {
		t.Fatalf("describe after delete: %v", err)
	}
	if out, err := deleteEndpoint(url, "tts-cli", false); err != nil {
		t.Fatalf("second delete: %v\n%s", err, out)
	}

	// Bad input is refused before any call; no credentials is one line saying what to do.
	bad := deployJob(url, "tts-cli", 1)
	bad.Env = []string{"NOEQUALS"}
	if _, err := deploy(bad); err == nil || !strings.Contains(err.Error(), "KEY=VALUE") {
		t.Fatalf("bad --env: %v", err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	_, err = deploy(deployJob(url, "tts-cli", 1))
	if !errors.Is(err, awsconf.ErrNoCredentials) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("no credentials: %v", err)
	}
}
