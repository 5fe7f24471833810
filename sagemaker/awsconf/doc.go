// Package awsconf is what every AWS client of kokoro is built from: the SDK configuration
// (region, profile, an address that replaces AWS's), the deadlines of connecting and answering,
// the bounded jittered retries of control-plane calls, the CloudWatch protocol, and the
// one-line *Error a user can act on when a call fails. The control plane (sagemaker) and the
// runtime data plane (sagemaker/smruntime) both use it; it uses neither.
package awsconf
