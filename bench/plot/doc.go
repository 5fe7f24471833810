// Package plot draws a bench report as a PNG: p95 time to first audio byte and p95 playback
// stall against concurrency, the SLO and Q_max. It is kept apart from package bench so that
// the ladder and its statistics do not carry the plotting library.
package plot
