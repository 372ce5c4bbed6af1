//! CLDR plural categories, chosen with the `intl_pluralrules` crate's rule tables.

use intl_pluralrules::{PluralRuleType, PluralRules};
use unic_langid::LanguageIdentifier;

/// A CLDR plural category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PluralCategory {
    /// `zero`
    Zero,
    /// `one`
    One,
    /// `two`
    Two,
    /// `few`
    Few,
    /// `many`
    Many,
    /// `other`
    Other,
}

impl PluralCategory {
    /// Parse a category name as written in bundles (`one`, `other`, ...).
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "zero" => Self::Zero,
            "one" => Self::One,
            "two" => Self::Two,
            "few" => Self::Few,
            "many" => Self::Many,
            "other" => Self::Other,
            _ => return None,
        })
    }

    /// The name as written in bundles.
    pub fn name(self) -> &'static str {
        match self {
            Self::Zero => "zero",
            Self::One => "one",
            Self::Two => "two",
            Self::Few => "few",
            Self::Many => "many",
            Self::Other => "other",
        }
    }
}

/// Cardinal plural rules of one locale.
pub struct PluralSelector {
    rules: Option<PluralRules>,
}

impl PluralSelector {
    /// Rules for `tag`, trying the full tag and then its language (`pt-PT`, then `pt`).
    /// Unknown languages select `other` for every number.
    pub fn new(tag: &str) -> Self {
        let candidates = [Some(tag), tag.split('-').next()];
        let rules = candidates.into_iter().flatten().find_map(|candidate| {
            let id: LanguageIdentifier = candidate.parse().ok()?;
            PluralRules::create(id, PluralRuleType::CARDINAL).ok()
        });
        Self { rules }
    }

    /// The category of `count` (integers and decimals, e.g. `1.5`).
    pub fn select(&self, count: f64) -> PluralCategory {
        let Some(rules) = &self.rules else {
            return PluralCategory::Other;
        };
        let selected = if count.fract() == 0.0 && count.abs() < 1e15 {
            rules.select(count as i64)
        } else {
            rules.select(count)
        };
        match selected {
            Ok(intl_pluralrules::PluralCategory::ZERO) => PluralCategory::Zero,
            Ok(intl_pluralrules::PluralCategory::ONE) => PluralCategory::One,
            Ok(intl_pluralrules::PluralCategory::TWO) => PluralCategory::Two,
            Ok(intl_pluralrules::PluralCategory::FEW) => PluralCategory::Few,
            Ok(intl_pluralrules::PluralCategory::MANY) => PluralCategory::Many,
            _ => PluralCategory::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PluralCategory::*;
    use super::*;

    fn cats(tag: &str, numbers: &[f64]) -> Vec<PluralCategory> {
        let selector = PluralSelector::new(tag);
        numbers.iter().map(|n| selector.select(*n)).collect()
    }

    #[test]
    fn english_has_one_and_other() {
        assert_eq!(
            cats("en", &[0.0, 1.0, 2.0, 1.5]),
            [Other, One, Other, Other]
        );
    }

    #[test]
    fn chinese_and_japanese_only_have_other() {
        assert_eq!(cats("zh-TW", &[0.0, 1.0, 2.0]), [Other, Other, Other]);
        assert_eq!(cats("ja", &[1.0, 5.0]), [Other, Other]);
    }

    #[test]
    fn french_treats_zero_and_one_alike() {
        assert_eq!(cats("fr", &[0.0, 1.0, 1.5, 2.0]), [One, One, One, Other]);
    }

    #[test]
    fn russian_has_one_few_many() {
        assert_eq!(
            cats("ru", &[1.0, 2.0, 5.0, 11.0, 21.0, 22.0, 1.5]),
            [One, Few, Many, Many, One, Few, Other]
        );
    }

    #[test]
    fn arabic_has_all_six() {
        assert_eq!(
            cats("ar", &[0.0, 1.0, 2.0, 3.0, 11.0, 100.0]),
            [Zero, One, Two, Few, Many, Other]
        );
    }

    #[test]
    fn unknown_language_selects_other() {
        assert_eq!(cats("x-unknown", &[1.0]), [Other]);
    }
}
