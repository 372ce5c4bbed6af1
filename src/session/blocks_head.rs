//! Content blocks read for an entry's head: the first words of the first
//! text, the tool calls (ids and labels) and how many there are; every
//! block is still checked for the shape its type requires.

use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};

use super::call_head::CallHead;
use super::head_json::{OneLine, ReadTagged, Str, TaggedVisitor};
use super::preview::{CallList, one_line};

/// What the preview and the facts need of a list of content blocks.
#[derive(Default)]
pub(super) struct BlocksHead {
    /// The first words of the first text block.
    pub(super) first: Option<String>,
    /// How many tool calls there are.
    pub(super) tool_calls: usize,
    /// The tool calls' ids and labels.
    pub(super) labels: CallList,
}

impl<'de> Visitor<'de> for BlocksHeadVisitor {
    type Value = BlocksHead;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of content blocks")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<BlocksHead, S::Error> {
        let mut blocks = BlocksHead::default();
        loop {
            // Only the first text block's words are kept: later ones are only checked.
            let block = if blocks.first.is_none() {
                seq.next_element::<Block<true>>()?.map(|b| b.0)
            } else {
                seq.next_element::<Block<false>>()?.map(|b| b.0)
            };
            match block {
                None => return Ok(blocks),
                Some(BlockHead::Text(line)) => {
                    blocks.first.get_or_insert(line);
                }
                Some(BlockHead::Call(call)) => {
                    blocks.tool_calls += 1;
                    blocks.labels.push(&call.id.0, &call.label);
                }
                Some(BlockHead::Other) => {}
            }
        }
    }
}

struct BlocksHeadVisitor;

impl<'de> Deserialize<'de> for BlocksHead {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(BlocksHeadVisitor)
    }
}

/// User or extension content (a string, or a list of blocks): the first words
/// of its text.
pub(super) struct ContentHead(pub(super) String);

struct ContentHeadVisitor;

impl<'de> Visitor<'de> for ContentHeadVisitor {
    type Value = ContentHead;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("text or a list of content blocks")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<ContentHead, E> {
        Ok(ContentHead(one_line(text)))
    }

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<ContentHead, S::Error> {
        let blocks = BlocksHeadVisitor.visit_seq(seq)?;
        Ok(ContentHead(blocks.first.unwrap_or_default()))
    }
}

impl<'de> Deserialize<'de> for ContentHead {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ContentHeadVisitor)
    }
}

/// What the preview and the facts need of one content block.
enum BlockHead<'a> {
    /// A text block's first words (empty unless `LINE`).
    Text(String),
    /// A tool call.
    Call(CallHead<'a>),
    /// Thinking or an image.
    Other,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct TextBlock<T> {
    text: T,
    #[serde(rename = "textSignature", default)]
    _text_signature: Option<Str>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ThinkingBlock {
    #[serde(rename = "thinking")]
    _thinking: Str,
    #[serde(rename = "thinkingSignature", default)]
    _thinking_signature: Option<Str>,
    #[serde(rename = "redacted", default)]
    _redacted: Option<bool>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ImageBlock {
    #[serde(rename = "data")]
    _data: Str,
    #[serde(rename = "mimeType")]
    _mime_type: Str,
}

/// A content block read for its head, a text block's words kept only when `LINE`.
struct Block<'a, const LINE: bool>(BlockHead<'a>);

impl<'de, const LINE: bool> ReadTagged<'de> for Block<'de, LINE> {
    const TAG: &'static str = "type";

    fn read<D: Deserializer<'de>>(name: &str, rest: D) -> Result<Self, D::Error> {
        Ok(Block(match name {
            "text" if LINE => BlockHead::Text(TextBlock::<OneLine>::deserialize(rest)?.text.0),
            "text" => {
                TextBlock::<Str>::deserialize(rest).map(|_| BlockHead::Text(String::new()))?
            }
            "thinking" => ThinkingBlock::deserialize(rest).map(|_| BlockHead::Other)?,
            "image" => ImageBlock::deserialize(rest).map(|_| BlockHead::Other)?,
            "toolCall" => BlockHead::Call(CallHead::deserialize(rest)?),
            _ => return Err(de::Error::custom("a block read in full")),
        }))
    }
}

impl<'de, const LINE: bool> Deserialize<'de> for Block<'de, LINE> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(TaggedVisitor::<Block<'de, LINE>>(PhantomData))
    }
}
