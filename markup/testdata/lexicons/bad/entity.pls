<?xml version="1.0"?>
<!DOCTYPE lexicon [<!ENTITY x "xxxxxxxx">]>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"><lexeme><grapheme>&x;</grapheme><alias>y</alias></lexeme></lexicon>
