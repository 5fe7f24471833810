package sagemaker

import (
	"context"

	sm "github.com/aws/aws-sdk-go-v2/service/sagemaker"
)

// fakeSageMaker passes every call to the embedded API (a real client on moto) except those
// whose Func field is set: the faults and behaviours moto does not produce.
type fakeSageMaker struct {
	SageMakerAPI
	DescribeEndpointFunc                   func(context.Context, *sm.DescribeEndpointInput, ...func(*sm.Options)) (*sm.DescribeEndpointOutput, error)
	UpdateEndpointFunc                     func(context.Context, *sm.UpdateEndpointInput, ...func(*sm.Options)) (*sm.UpdateEndpointOutput, error)
	UpdateEndpointWeightsAndCapacitiesFunc func(context.Context, *sm.UpdateEndpointWeightsAndCapacitiesInput, ...func(*sm.Options)) (*sm.UpdateEndpointWeightsAndCapacitiesOutput, error)
	CreateEndpointFunc                     func(context.Context, *sm.CreateEndpointInput, ...func(*sm.Options)) (*sm.CreateEndpointOutput, error)
}

func (f *fakeSageMaker) DescribeEndpoint(ctx context.Context, in *sm.DescribeEndpointInput, o ...func(*sm.Options)) (*sm.DescribeEndpointOutput, error) {
	if f.DescribeEndpointFunc != nil {
		return f.DescribeEndpointFunc(ctx, in, o...)
	}
	return f.SageMakerAPI.DescribeEndpoint(ctx, in, o...)
}

func (f *fakeSageMaker) UpdateEndpoint(ctx context.Context, in *sm.UpdateEndpointInput, o ...func(*sm.Options)) (*sm.UpdateEndpointOutput, error) {
	if f.UpdateEndpointFunc != nil {
		return f.UpdateEndpointFunc(ctx, in, o...)
	}
	return f.SageMakerAPI.UpdateEndpoint(ctx, in, o...)
}

func (f *fakeSageMaker) UpdateEndpointWeightsAndCapacities(ctx context.Context, in *sm.UpdateEndpointWeightsAndCapacitiesInput, o ...func(*sm.Options)) (*sm.UpdateEndpointWeightsAndCapacitiesOutput, error) {
	if f.UpdateEndpointWeightsAndCapacitiesFunc != nil {
		return f.UpdateEndpointWeightsAndCapacitiesFunc(ctx, in, o...)
	}
	return f.SageMakerAPI.UpdateEndpointWeightsAndCapacities(ctx, in, o...)
}

func (f *fakeSageMaker) CreateEndpoint(ctx context.Context, in *sm.CreateEndpointInput, o ...func(*sm.Options)) (*sm.CreateEndpointOutput, error) {
	if f.CreateEndpointFunc != nil {
		return f.CreateEndpointFunc(ctx, in, o...)
	}
	return f.SageMakerAPI.CreateEndpoint(ctx, in, o...)
}

// motoUpdateEndpoint stands in for UpdateEndpoint, which moto does not implement: it replaces
// the endpoint with one on the new config, the state SageMaker's blue/green update ends in.
func motoUpdateEndpoint(api SageMakerAPI) func(context.Context, *sm.UpdateEndpointInput, ...func(*sm.Options)) (*sm.UpdateEndpointOutput, error) {
	return func(ctx context.Context, in *sm.UpdateEndpointInput, _ ...func(*sm.Options)) (*sm.UpdateEndpointOutput, error) {
		if _, err := api.DescribeEndpoint(ctx, &sm.DescribeEndpointInput{EndpointName: in.EndpointName}); err != nil {
			return nil, err
		}
		if _, err := api.DescribeEndpointConfig(ctx, &sm.DescribeEndpointConfigInput{EndpointConfigName: in.EndpointConfigName}); err != nil {
			return nil, err
		}
		if _, err := api.DeleteEndpoint(ctx, &sm.DeleteEndpointInput{EndpointName: in.EndpointName}); err != nil {
			return nil, err
		}
		out, err := api.CreateEndpoint(ctx, &sm.CreateEndpointInput{EndpointName: in.EndpointName, EndpointConfigName: in.EndpointConfigName})
		if err != nil {
			return nil, err
		}
		return &sm.UpdateEndpointOutput{EndpointArn: out.EndpointArn}, nil
	}
}
