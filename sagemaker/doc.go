// Package sagemaker is kokoro's control plane on AWS: what happens around a measurement and a
// deployment (deploy, freeze and thaw, capacity, logs, CloudWatch, scaling policies applied,
// diffed and validated). The runtime data plane the bench and the emulator speak (response
// streaming, the HTTP/2 bidirectional stream, the event stream) lives apart in
// sagemaker/smruntime, and what both build their clients from (configuration, deadlines,
// retries, one-line errors) in sagemaker/awsconf; neither imports this package. The AWS SDK
// stays inside these three; bench, planner and the CLI consume small interfaces of their own.
package sagemaker
