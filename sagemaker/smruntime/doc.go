// Package smruntime is the SageMaker runtime data plane: the clients the bench drives a deployed
// endpoint through (InvokeEndpoint, InvokeEndpointWithResponseStream, and the HTTP/2
// InvokeEndpointWithBidirectionalStream, for which the SDK has no client), the event-stream
// framing both directions use, and the ConcurrentRequestsPerModel metric SageMaker publishes.
// The emulator serves the same framing. It never retries: a call inside a measurement is one
// measurement. It depends on sagemaker/awsconf and on neither the control plane nor the planner.
package smruntime
