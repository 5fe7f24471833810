package testenv

import (
	"net/http"
	"testing"
)

func TestMotoAnswers(t *testing.T) {
	url := Moto(t)
	resp, err := http.Get(url + "/moto-api/data.json")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("moto answered %s", resp.Status)
	}
}
