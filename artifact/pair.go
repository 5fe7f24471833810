package artifact

import "fmt"

// Ref describes q for a ttotal artifact that used it (TTotal.Pairs); file is where q was
// read from, recorded for people only.
func (q *Qmax) Ref(file string) *QmaxRef {
	fp, slug := q.Fingerprint, q.Slug
	if fp == "" {
		fp = q.Target.Fingerprint()
	}
	if slug == "" {
		slug = q.Target.Slug()
	}
	return &QmaxRef{
		Transport: q.Target.Transport, Fingerprint: fp, Slug: slug, QMax: q.QMax,
		Config: q.Config, File: file,
	}
}

// Mismatch says how a qmax and a ttotal artifact measured different things, or returns ""
// when they may be combined: same configuration fingerprint, same model, and — when the
// ttotal run records the qmax it paired with — the same transport and fingerprint there.
// Fields an artifact does not record (the reference tool's ttotal names no transport) are
// not held against it.
func Mismatch(q *Qmax, t *TTotal) string {
	switch {
	case t.Fingerprint != q.Fingerprint:
		return fmt.Sprintf("qmax measured %s (fingerprint %.12s), ttotal measured %s (fingerprint %.12s)",
			q.Slug, q.Fingerprint, t.Slug, t.Fingerprint)
	case t.Target.Model != "" && t.Target.Model != q.Target.Model:
		return fmt.Sprintf("qmax measured model %q, ttotal model %q", q.Target.Model, t.Target.Model)
	case t.Target.Transport != "" && q.Target.Transport != "" && t.Target.Transport != q.Target.Transport:
		return fmt.Sprintf("ttotal probed over %s, the qmax is %s", t.Target.Transport, q.Target.Transport)
	case t.Pairs != nil && t.Pairs.Transport != "" && t.Pairs.Transport != q.Target.Transport:
		return fmt.Sprintf("ttotal probed with a %s qmax, this qmax is %s", t.Pairs.Transport, q.Target.Transport)
	case t.Pairs != nil && t.Pairs.Fingerprint != "" && t.Pairs.Fingerprint != q.Fingerprint:
		return fmt.Sprintf("ttotal paired with a qmax of another configuration (fingerprint %.12s)", t.Pairs.Fingerprint)
	}
	return ""
}
