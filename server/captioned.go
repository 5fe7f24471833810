package server

import (
	"fmt"

	"github.com/kokoro-sm/kokoro/api"
)

// labelCaptioned is the metrics and log label of POST /dev/captioned_speech.
const labelCaptioned = "captioned_speech"

// maxVolume bounds volume_multiplier: past it every sample of speech is clipped.
const maxVolume = 100

// parseCaptioned decodes a POST /dev/captioned_speech body: Kokoro-FastAPI's request, with its
// defaults (mp3, streamed, timestamps on) and OpenAI's speed range.
func parseCaptioned(b []byte, lim limits) (*synthesis, error) {
	var in api.CaptionedSpeechRequest
	if err := decodeStrict(b, &in, lim.unknownOK); err != nil {
		return nil, err
	}
	if err := checkModel(in.Model); err != nil {
		return nil, err
	}
	s := &synthesis{route: labelCaptioned, stream: true}
	if in.Stream != nil {
		s.stream = *in.Stream
	}
	var err error
	if s.format, err = lookupFormat(in.ResponseFormat, api.DefaultSpeechFormat); err != nil {
		return nil, err
	}
	if s.rate, err = checkRate(in.SampleRate, s.format); err != nil {
		return nil, err
	}
	speed, err := openAISpeed(in.Speed)
	if err != nil {
		return nil, err
	}
	if s.volume, err = checkVolume(in.VolumeMultiplier); err != nil {
		return nil, err
	}
	s.timed = captionedFraming{mediaType: s.format.ContentType, timestamps: in.ReturnTimestamps == nil || *in.ReturnTimestamps}
	// lang_code is the reference pipeline's one-letter code ("a", "j", …), which the engine's
	// check reads as it reads a language tag.
	s.fields = fields{Text: in.Input, Voice: in.Voice, Speed: speed, Lang: in.LangCode, Normalization: in.NormalizationOptions}
	return s, nil
}

// checkVolume accepts Kokoro-FastAPI's volume_multiplier: absent, or within [0, maxVolume].
func checkVolume(v *float64) (*float64, error) {
	if v != nil && !(*v >= 0 && *v <= maxVolume) {
		return nil, fmt.Errorf("%w: %v is not in [0, %d]", errBadVolume, *v, maxVolume)
	}
	return v, nil
}
