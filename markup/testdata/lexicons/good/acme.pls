<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US">
  <meta name="author" content="kokoro tests"/>
  <lexeme>
    <grapheme>W3C</grapheme>
    <alias>World Wide Web Consortium</alias>
  </lexeme>
  <lexeme>
    <grapheme>tomato</grapheme>
    <grapheme>Tomato</grapheme>
    <phoneme>təˈmɑːtoʊ</phoneme>
  </lexeme>
  <lexeme>
    <grapheme>New York City</grapheme>
    <alias>the Big Apple</alias>
  </lexeme>
</lexicon>
