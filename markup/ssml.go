package markup

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of a document Parse accepts: a request's body is smaller than MaxBytes, and no
// document a person writes nests deeper than MaxDepth. MaxBreak is the longest pause Polly
// allows (its <break> page).
const (
	MaxBytes = 1 << 20
	MaxDepth = 32
	MaxBreak = 10 * time.Second
	// MaxElements bounds the tags of a document: Polly takes 6,000 characters of SSML, so
	// no document written for it comes near, and a flood of tags is refused before it costs
	// more than a parse.
	MaxElements = 10000
)

// ErrSSML is the error every refusal of Parse wraps; its message names the problem and the
// values that are valid.
var ErrSSML = errors.New("invalid ssml")

// ssmlNS is the SSML namespace a document may declare; its elements are ours.
const ssmlNS = "http://www.w3.org/2001/10/synthesis"

// Tags lists the elements of the subset Parse reads, as error messages name them.
var Tags = []string{"speak", "break", "emphasis", "lang", "mark", "p", "phoneme", "prosody", "s", "say-as", "sub", "w"}

// Kind is what an Item is.
type Kind uint8

// Kinds of Item.
const (
	KindText  Kind = iota // words to speak
	KindBreak             // a pause
	KindMark              // a <mark>: a named point whose time is reported
)

// Pause is the strength of a break, as Polly reads <break strength>: none and x-weak remove a
// pause, weak and medium are a comma's, strong a sentence's, x-strong a paragraph's.
type Pause uint8

// Pauses, weakest first.
const (
	PauseNone Pause = iota
	PauseComma
	PauseSentence
	PauseParagraph
)

// Span is a range of bytes [Start, End) of the document.
type Span struct{ Start, End int }

// Style is how a text item is spoken, from the elements around it.
type Style struct {
	// Rate multiplies the request's speed (<prosody rate>, <emphasis>): 1 is as asked.
	Rate float64
	// VolumeDB is the gain in dB (<prosody volume>, <emphasis>); Silent mutes.
	VolumeDB float64
	// Lang is the language code of an enclosing xml:lang, "" for the request's.
	Lang string
	// Emphasis is the level of an enclosing <emphasis> ("" for none), already folded into
	// Rate and VolumeDB.
	Emphasis string
	// Role is the part of speech a <w role> names (amazon:VB …), "" for none.
	Role string
}

// Silent is the VolumeDB of <prosody volume="silent">.
const Silent = -1000.0

// Item is one piece of a document, in reading order.
type Item struct {
	Kind Kind
	// Text is the words a KindText item speaks: the text as written, a <sub>'s alias, or a
	// <say-as> read into plain words.
	Text string
	// Phonemes replace Text's reading: a <phoneme>'s ph in Kokoro's symbols; "" for none.
	Phonemes string
	// Src is where the item lies in the document: a text's characters, or the content of the
	// element that made it (sub, say-as, phoneme); a break's or a mark's tag.
	Src Span
	// Exact: Text is Src's bytes as written, byte for byte (no entity, no rendering).
	Exact bool
	Style Style
	// Pause and Time are a KindBreak's length: Time when the tag gave one, else Pause's.
	// Implied is a break that a <p> or <s> implies, dropped at the document's ends.
	Pause   Pause
	Time    time.Duration
	Implied bool
	Name    string // a KindMark's name
}

// Doc is a parsed document: its items, in reading order, and the document itself.
type Doc struct {
	Source string
	Items  []Item
}

// IsSSML reports whether text is an SSML document by its start, as Polly's TextType ssml
// is recognized by a request that does not name it: <speak> (or an XML declaration) first.
func IsSSML(text string) bool {
	t := strings.TrimLeft(text, " \t\r\n\ufeff")
	return strings.HasPrefix(t, "<speak") || strings.HasPrefix(t, "<?xml")
}

// frame is an open element.
type frame struct {
	name  string
	style Style
	// textOnly: the element holds text alone (say-as, sub, phoneme), collected in buf and
	// rendered at its end, from content.
	textOnly bool
	start    xml.StartElement
	content  int // byte offset of the element's content
	buf      strings.Builder
}

// parser is one Parse call's state.
type parser struct {
	src   string
	dec   *xml.Decoder
	stack []*frame
	items []Item
	root  bool // <speak> was opened
	elems int  // elements opened so far
	done  bool // </speak> was read
}

// Parse reads an SSML document. See the package comment for what it accepts.
func Parse(src string) (*Doc, error) {
	if len(src) > MaxBytes {
		return nil, fmt.Errorf("%w: the document is %d bytes, the limit is %d", ErrSSML, len(src), MaxBytes)
	}
	if !utf8.ValidString(src) {
		return nil, fmt.Errorf("%w: the document is not valid UTF-8", ErrSSML)
	}
	p := &parser{src: src, dec: xml.NewDecoder(strings.NewReader(src))}
	p.dec.Strict = true
	for {
		pos := int(p.dec.InputOffset())
		tok, err := p.dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, fmt.Errorf("%w: line %d: %s", ErrSSML, se.Line, se.Msg)
			}
			return nil, fmt.Errorf("%w: %v", ErrSSML, err)
		}
		end := int(p.dec.InputOffset())
		if err := p.token(tok, pos, end); err != nil {
			return nil, fmt.Errorf("%w: %s", ErrSSML, err.Error())
		}
	}
	if !p.root {
		return nil, fmt.Errorf("%w: the document has no <speak> element", ErrSSML)
	}
	if !p.done {
		return nil, fmt.Errorf("%w: <%s> is not closed", ErrSSML, p.stack[len(p.stack)-1].name)
	}
	return &Doc{Source: src, Items: p.items}, nil
}

// token handles one token that lies at bytes [pos, end) of the document.
func (p *parser) token(tok xml.Token, pos, end int) error {
	switch t := tok.(type) {
	case xml.StartElement:
		return p.open(t, pos, end)
	case xml.EndElement:
		return p.close(pos, end)
	case xml.CharData:
		return p.text(string(t), pos, end)
	case xml.Comment:
		return nil
	case xml.ProcInst:
		if t.Target == "xml" && len(p.items) == 0 && !p.root {
			return nil
		}
		return fmt.Errorf("processing instruction <?%s?> is not allowed", clip(t.Target))
	case xml.Directive:
		return errors.New("DTDs and entity declarations (<!...>) are not allowed")
	}
	return nil
}

// elementName is an element's name as written, prefix included; ok is false for a
// namespace that is not SSML's.
func elementName(n xml.Name) (string, bool) {
	if n.Space == "" || n.Space == ssmlNS {
		return n.Local, true
	}
	return n.Space + ":" + n.Local, false
}

func (p *parser) open(t xml.StartElement, pos, end int) error {
	name, ours := elementName(t.Name)
	if p.done {
		return fmt.Errorf("<%s> after </speak>: the document is one <speak> element", clip(name))
	}
	if !p.root {
		if name != "speak" || !ours {
			return fmt.Errorf("the document must start with <speak>, not <%s>", clip(name))
		}
	}
	if !ours || !isTag(name) {
		return fmt.Errorf("unsupported tag <%s>; supported: %s", clip(name), strings.Join(Tags, ", "))
	}
	if name == "speak" && p.root {
		return errors.New("<speak> inside <speak>")
	}
	if p.elems++; p.elems > MaxElements {
		return fmt.Errorf("more than %d elements", MaxElements)
	}
	if len(p.stack) >= MaxDepth {
		return fmt.Errorf("elements nested deeper than %d", MaxDepth)
	}
	var parent *frame
	style := Style{Rate: 1}
	if n := len(p.stack); n > 0 {
		parent = p.stack[n-1]
		style = parent.style
		if parent.textOnly {
			return fmt.Errorf("<%s> inside <%s>: <%s> holds text only", name, parent.name, parent.name)
		}
	}
	f := &frame{name: name, style: style, start: t, content: end}
	attrs, err := attributes(name, t.Attr)
	if err != nil {
		return err
	}
	switch name {
	case "speak":
		p.root = true
		if v, ok := attrs["xml:lang"]; ok {
			if f.style.Lang, err = parseLang(v); err != nil {
				return err
			}
		}
	case "break":
		it, err := breakItem(attrs)
		if err != nil {
			return err
		}
		it.Src = Span{pos, end}
		p.items = append(p.items, it)
	case "mark":
		n, ok := attrs["name"]
		if !ok || strings.TrimSpace(n) == "" {
			return errors.New("<mark> needs a name attribute")
		}
		p.items = append(p.items, Item{Kind: KindMark, Name: n, Src: Span{pos, end}})
	case "p", "s":
		p.breakBetween(name, pos)
	case "prosody":
		if err := prosody(&f.style, attrs); err != nil {
			return err
		}
	case "emphasis":
		if err := emphasis(&f.style, attrs["level"]); err != nil {
			return err
		}
	case "lang":
		v, ok := attrs["xml:lang"]
		if !ok {
			return errors.New("<lang> needs an xml:lang attribute")
		}
		if f.style.Lang, err = parseLang(v); err != nil {
			return err
		}
	case "w":
		r, ok := attrs["role"]
		if !ok {
			return fmt.Errorf("<w> needs a role attribute; roles: %s", strings.Join(roles, ", "))
		}
		if !contains(roles, r) {
			return fmt.Errorf("<w role=%q> is not a role; roles: %s", clip(r), strings.Join(roles, ", "))
		}
		f.style.Role = r
	case "say-as", "sub", "phoneme":
		f.textOnly = true
		if err := checkTextOnly(name, attrs); err != nil {
			return err
		}
	}
	p.stack = append(p.stack, f)
	return nil
}

// breakBetween is the pause a <p> or <s> implies at its start and its end: a paragraph's or
// a sentence's, whichever is stronger where two meet.
func (p *parser) breakBetween(name string, pos int) {
	pause := PauseSentence
	if name == "p" {
		pause = PauseParagraph
	}
	p.items = append(p.items, Item{Kind: KindBreak, Pause: pause, Implied: true, Src: Span{pos, pos}})
}

func (p *parser) close(pos, end int) error {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	switch f.name {
	case "speak":
		p.done = true
	case "break", "mark":
		// empty elements: text inside them was refused as it came
	case "p", "s":
		p.breakBetween(f.name, end)
	case "say-as", "sub", "phoneme":
		it, err := renderTextOnly(f, p.src[f.content:pos])
		if err != nil {
			return err
		}
		it.Src, it.Style = Span{f.content, pos}, f.style
		p.items = append(p.items, it)
	}
	return nil
}

func (p *parser) text(s string, pos, end int) error {
	blank := strings.TrimSpace(s) == ""
	if len(p.stack) == 0 {
		if blank {
			return nil
		}
		if p.done {
			return errors.New("text after </speak>: the document is one <speak> element")
		}
		return errors.New("text before <speak>: the document must start with <speak>")
	}
	f := p.stack[len(p.stack)-1]
	switch {
	case f.textOnly:
		f.buf.WriteString(s)
		return nil
	case f.name == "break" || f.name == "mark":
		if blank {
			return nil
		}
		return fmt.Errorf("<%s> is empty: write <%s/>, text goes after it", f.name, f.name)
	}
	p.items = append(p.items, Item{Kind: KindText, Text: s, Src: Span{pos, end}, Exact: p.src[pos:end] == s, Style: f.style})
	return nil
}

func isTag(name string) bool { return contains(Tags, name) }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// clip bounds a value an error message repeats.
func clip(s string) string {
	const max = 40
	if len(s) > max {
		return strings.ToValidUTF8(s[:max], "") + "…"
	}
	return s
}
