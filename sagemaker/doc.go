// Package sagemaker is kokoro's only door to AWS: the runtime clients the bench drives a deployed
// endpoint through (response streaming and the HTTP/2 bidirectional stream) and the control
// plane around a measurement (deploy, freeze and thaw, capacity, logs, CloudWatch, scaling
// policies). The AWS SDK stays inside this package; bench, planner and the CLI consume small
// interfaces of their own.
package sagemaker
