// Package emulate is a local SageMaker runtime: the public wire protocol of InvokeEndpoint,
// InvokeEndpointWithResponseStream (HTTP/1.1, event stream) and
// InvokeEndpointWithBidirectionalStream (HTTP/2 cleartext, event streams both ways) on one
// loopback port, in front of real containers on the SageMaker contract (`kokoro serve` or any
// other). `kokoro emulate` runs it; the bench's SageMaker transports and the end-to-end tests
// drive it with the AWS SDK and the bidirectional client of package
// sagemaker/smruntime.
//
// It behaves like SageMaker where a client notices: it requires SigV4 headers scoped to its
// region and the service "sagemaker" (the signature itself needs the caller's secret, so it is
// not verified), forwards the body and the X-Amzn-SageMaker-* headers the API passes on,
// answers a container's failure with ModelError carrying the container's status and body,
// ends invocations at the 60 s limit (configurable, for tests), spreads requests over the
// instances of a variant (fewest in flight first), and publishes ConcurrentRequestsPerModel to
// CloudWatch when given a sink. Faults injects throttling and stream failures on demand.
//
// ControlPlane is the control plane's counterpart for what moto lacks: SageMaker inference
// components and Application Auto Scaling on their copy count, served in memory, with every
// other request forwarded to moto; `kokoro emulate --control-upstream` serves it on the same
// port.
//
// What was checked against which public document, and what could not be, is listed in
// docs/emulator.md.
package emulate
