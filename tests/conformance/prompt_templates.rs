//! Prompt template argument parsing and placeholder substitution.
//! orig-file: packages/coding-agent/test/prompt-templates.test.ts
//! Each row passes the original's template and arguments to `substitute_args` (or its
//! input to `parse_args`) and expects the original's output.

use pi::resources::prompt_templates::{parse_args, substitute_args};

fn sub(template: &str, args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    substitute_args(template, &args)
}

fn owned(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// `name: template, [args] => expected;` rows, each one `#[test]`.
macro_rules! subst {
    ($($(#[$m:meta])* $name:ident: $( ($tpl:expr, [$($a:expr),*]) => $want:expr ),+ ;)*) => {$(
        $(#[$m])*
        #[test]
        fn $name() {
            $( assert_eq!(sub($tpl, &[$($a),*]), $want, "template {:?}", $tpl); )+
        }
    )*};
}

/// `name: input => [expected args];` rows for `parse_args`.
macro_rules! split {
    ($($(#[$m:meta])* $name:ident: $input:expr => [$($want:expr),*];)*) => {$(
        $(#[$m])*
        #[test]
        fn $name() {
            let want: Vec<String> = owned(&[$($want),*]);
            assert_eq!(parse_args($input), want, "input {:?}", $input);
        }
    )*};
}

subst! {
    /// orig: substituteArgs › should replace $ARGUMENTS with all args joined
    arguments_joins_all_args: ("Test: $ARGUMENTS", ["a", "b", "c"]) => "Test: a b c";
    /// orig: substituteArgs › should replace $@ with all args joined
    at_joins_all_args: ("Test: $@", ["a", "b", "c"]) => "Test: a b c";
    /// orig: substituteArgs › should replace $@ and $ARGUMENTS identically
    at_and_arguments_are_identical: ("Test: $@", ["foo", "bar", "baz"]) => sub("Test: $ARGUMENTS", &["foo", "bar", "baz"]);
    /// orig: substituteArgs › should NOT recursively substitute patterns in argument values
    argument_values_are_not_substituted_again:
        ("$ARGUMENTS", ["$1", "$ARGUMENTS"]) => "$1 $ARGUMENTS",
        ("$@", ["$100", "$1"]) => "$100 $1",
        ("$ARGUMENTS", ["$100", "$1"]) => "$100 $1";
    /// orig: substituteArgs › should support mixed $1, $2, and $ARGUMENTS
    positional_mixed_with_arguments: ("$1: $ARGUMENTS", ["prefix", "a", "b"]) => "prefix: prefix a b";
    /// orig: substituteArgs › should support mixed $1, $2, and $@
    positional_mixed_with_at: ("$1: $@", ["prefix", "a", "b"]) => "prefix: prefix a b";
    /// orig: substituteArgs › should handle empty arguments array with $ARGUMENTS
    no_args_arguments_is_empty: ("Test: $ARGUMENTS", []) => "Test: ";
    /// orig: substituteArgs › should handle empty arguments array with $@
    no_args_at_is_empty: ("Test: $@", []) => "Test: ";
    /// orig: substituteArgs › should handle empty arguments array with $1
    no_args_positional_is_empty: ("Test: $1", []) => "Test: ";
    /// orig: substituteArgs › should handle multiple occurrences of $ARGUMENTS
    arguments_twice: ("$ARGUMENTS and $ARGUMENTS", ["a", "b"]) => "a b and a b";
    /// orig: substituteArgs › should handle multiple occurrences of $@
    at_twice: ("$@ and $@", ["a", "b"]) => "a b and a b";
    /// orig: substituteArgs › should handle mixed occurrences of $@ and $ARGUMENTS
    at_then_arguments: ("$@ and $ARGUMENTS", ["a", "b"]) => "a b and a b";
    /// orig: substituteArgs › should handle special characters in arguments
    special_characters_in_args: ("$1 $2: $ARGUMENTS", ["arg100", "@user"]) => "arg100 @user: arg100 @user";
    /// orig: substituteArgs › should handle out-of-range numbered placeholders
    out_of_range_positionals_are_empty: ("$1 $2 $3 $4 $5", ["a", "b"]) => "a b   ";
    /// orig: substituteArgs › should handle unicode characters
    unicode_args: ("$ARGUMENTS", ["日本語", "🎉", "café"]) => "日本語 🎉 café";
    /// orig: substituteArgs › should preserve newlines and tabs in argument values
    newlines_and_tabs_kept: ("$1 $2", ["line1\nline2", "tab\tthere"]) => "line1\nline2 tab\tthere";
    /// orig: substituteArgs › should handle consecutive dollar patterns
    consecutive_positionals: ("$1$2", ["a", "b"]) => "ab";
    /// orig: substituteArgs › should handle quoted arguments with spaces
    args_with_spaces: ("$ARGUMENTS", ["first arg", "second arg"]) => "first arg second arg";
    /// orig: substituteArgs › should handle single argument with $ARGUMENTS
    single_arg_arguments: ("Test: $ARGUMENTS", ["only"]) => "Test: only";
    /// orig: substituteArgs › should handle single argument with $@
    single_arg_at: ("Test: $@", ["only"]) => "Test: only";
    /// orig: substituteArgs › should handle $0 (zero index)
    dollar_zero_is_empty: ("$0", ["a", "b"]) => "";
    /// orig: substituteArgs › should handle decimal number in pattern (only integer part matches)
    decimal_takes_integer_part: ("$1.5", ["a"]) => "a.5";
    /// orig: substituteArgs › should handle $ARGUMENTS as part of word
    arguments_inside_word: ("pre$ARGUMENTS", ["a", "b"]) => "prea b";
    /// orig: substituteArgs › should handle $@ as part of word
    at_inside_word: ("pre$@", ["a", "b"]) => "prea b";
    /// orig: substituteArgs › should handle empty arguments in middle of list
    empty_arg_in_middle: ("$ARGUMENTS", ["a", "", "c"]) => "a  c";
    /// orig: substituteArgs › should handle trailing and leading spaces in arguments
    spaces_inside_args_kept: ("$ARGUMENTS", ["  leading  ", "trailing  "]) => "  leading   trailing  ";
    /// orig: substituteArgs › should handle argument containing pattern partially
    arg_spelling_arguments: ("Prefix $ARGUMENTS suffix", ["ARGUMENTS"]) => "Prefix ARGUMENTS suffix";
    /// orig: substituteArgs › should handle non-matching patterns
    non_matching_patterns_kept: ("$A $$ $ $ARGS", ["a"]) => "$A $$ $ $ARGS";
    /// orig: substituteArgs › should handle case variations (case-sensitive)
    placeholders_are_case_sensitive: ("$arguments $Arguments $ARGUMENTS", ["a", "b"]) => "$arguments $Arguments a b";
    /// orig: substituteArgs › should handle both syntaxes in same command with same result
    both_syntaxes_same_result:
        ("$@ and $ARGUMENTS", ["x", "y", "z"]) => "x y z and x y z",
        ("$ARGUMENTS and $@", ["x", "y", "z"]) => "x y z and x y z";
    /// orig: substituteArgs › should handle numbered placeholders with single digit
    single_digit_positionals: ("$1 $2 $3", ["a", "b", "c"]) => "a b c";
    /// orig: substituteArgs › should handle escaped dollar signs (literal backslash preserved)
    backslash_is_not_an_escape: ("Price: \\$100", []) => "Price: \\";
    /// orig: substituteArgs › should handle mixed numbered and wildcard placeholders
    numbered_and_wildcards: ("$1: $@ ($ARGUMENTS)", ["first", "second", "third"]) => "first: first second third (first second third)";
    /// orig: substituteArgs › should handle command with no placeholders
    no_placeholders: ("Just plain text", ["a", "b"]) => "Just plain text";
    /// orig: substituteArgs › should handle command with only placeholders
    only_placeholders: ("$1 $2 $@", ["a", "b", "c"]) => "a b a b c";
}

/// orig: substituteArgs › should handle very long argument lists
#[test]
fn hundred_args_are_all_joined() {
    let args: Vec<String> = (0..100).map(|i| format!("arg{i}")).collect();
    assert_eq!(substitute_args("$ARGUMENTS", &args), args.join(" "));
}

/// orig: substituteArgs › should handle numbered placeholders with multiple digits
#[test]
fn multi_digit_positionals() {
    let args: Vec<String> = (0..15).map(|i| format!("val{i}")).collect();
    assert_eq!(substitute_args("$10 $12 $15", &args), "val9 val11 val14");
}

/// orig: substituteArgs - array slicing › should handle large slice lengths gracefully
#[test]
fn large_slice_length() {
    let args: Vec<String> = (1..=10).map(|i| format!("arg{i}")).collect();
    assert_eq!(
        substitute_args("${@:5:100}", &args),
        "arg5 arg6 arg7 arg8 arg9 arg10"
    );
}

subst! {
    /// orig: substituteArgs - array slicing › should slice from index (${@:N})
    slice_from_index:
        ("${@:2}", ["a", "b", "c", "d"]) => "b c d",
        ("${@:1}", ["a", "b", "c"]) => "a b c",
        ("${@:3}", ["a", "b", "c", "d"]) => "c d";
    /// orig: substituteArgs - array slicing › should slice with length (${@:N:L})
    slice_with_length:
        ("${@:2:2}", ["a", "b", "c", "d"]) => "b c",
        ("${@:1:1}", ["a", "b", "c"]) => "a",
        ("${@:3:1}", ["a", "b", "c", "d"]) => "c",
        ("${@:2:3}", ["a", "b", "c", "d", "e"]) => "b c d";
    /// orig: substituteArgs - array slicing › should handle out of range slices
    slice_out_of_range:
        ("${@:99}", ["a", "b"]) => "",
        ("${@:5}", ["a", "b"]) => "",
        ("${@:10:5}", ["a", "b"]) => "";
    /// orig: substituteArgs - array slicing › should handle zero-length slices
    slice_zero_length:
        ("${@:2:0}", ["a", "b", "c"]) => "",
        ("${@:1:0}", ["a", "b"]) => "";
    /// orig: substituteArgs - array slicing › should handle length exceeding array
    slice_length_past_end:
        ("${@:2:99}", ["a", "b", "c"]) => "b c",
        ("${@:1:10}", ["a", "b"]) => "a b";
    /// orig: substituteArgs - array slicing › should process slice before simple $@
    slice_before_at:
        ("${@:2} vs $@", ["a", "b", "c"]) => "b c vs a b c",
        ("First: ${@:1:1}, All: $@", ["x", "y", "z"]) => "First: x, All: x y z";
    /// orig: substituteArgs - array slicing › should not recursively substitute slice patterns in args
    slice_values_not_substituted_again:
        ("${@:1}", ["${@:2}", "test"]) => "${@:2} test",
        ("${@:2}", ["a", "${@:3}", "c"]) => "${@:3} c";
    /// orig: substituteArgs - array slicing › should handle mixed usage with positional args
    slice_with_positionals:
        ("$1: ${@:2}", ["cmd", "arg1", "arg2"]) => "cmd: arg1 arg2",
        ("$1 $2 ${@:3}", ["a", "b", "c", "d"]) => "a b c d";
    /// orig: substituteArgs - array slicing › should treat ${@:0} as all args
    slice_zero_is_all: ("${@:0}", ["a", "b", "c"]) => "a b c";
    /// orig: substituteArgs - array slicing › should handle empty args array
    slice_of_no_args:
        ("${@:2}", []) => "",
        ("${@:1}", []) => "";
    /// orig: substituteArgs - array slicing › should handle single arg array
    slice_of_one_arg:
        ("${@:1}", ["only"]) => "only",
        ("${@:2}", ["only"]) => "";
    /// orig: substituteArgs - array slicing › should handle slice in middle of text
    slice_mid_text: ("Process ${@:2} with $1", ["tool", "file1", "file2"]) => "Process file1 file2 with tool";
    /// orig: substituteArgs - array slicing › should handle multiple slices in one template
    several_slices:
        ("${@:1:1} and ${@:2}", ["a", "b", "c"]) => "a and b c",
        ("${@:1:2} vs ${@:3:2}", ["a", "b", "c", "d", "e"]) => "a b vs c d";
    /// orig: substituteArgs - array slicing › should handle quoted arguments in slices
    slice_args_with_spaces: ("${@:2}", ["cmd", "first arg", "second arg"]) => "first arg second arg";
    /// orig: substituteArgs - array slicing › should handle special characters in sliced args
    slice_special_characters: ("${@:2}", ["cmd", "$100", "@user", "#tag"]) => "$100 @user #tag";
    /// orig: substituteArgs - array slicing › should handle unicode in sliced args
    slice_unicode: ("${@:1}", ["日本語", "🎉", "café"]) => "日本語 🎉 café";
    /// orig: substituteArgs - array slicing › should combine positional, slice, and wildcard placeholders
    positional_slice_and_wildcard:
        ("Run $1 on ${@:2:2}, then process $@", ["eslint", "file1.ts", "file2.ts", "file3.ts"])
            => "Run eslint on file1.ts file2.ts, then process eslint file1.ts file2.ts file3.ts";
    /// orig: substituteArgs - array slicing › should handle slice with no spacing
    slice_without_spaces: ("prefix${@:2}suffix", ["a", "b", "c"]) => "prefixb csuffix";
}

split! {
    /// orig: parseCommandArgs › should parse simple space-separated arguments
    split_on_spaces: "a b c" => ["a", "b", "c"];
    /// orig: parseCommandArgs › should parse quoted arguments with spaces
    split_double_quotes: "\"first arg\" second" => ["first arg", "second"];
    /// orig: parseCommandArgs › should parse single-quoted arguments
    split_single_quotes: "'first arg' second" => ["first arg", "second"];
    /// orig: parseCommandArgs › should parse mixed quote styles
    split_mixed_quotes: "\"double\" 'single' \"double again\"" => ["double", "single", "double again"];
    /// orig: parseCommandArgs › should handle empty string
    split_empty: "" => [];
    /// orig: parseCommandArgs › should handle extra spaces
    split_extra_spaces: "a  b   c" => ["a", "b", "c"];
    /// orig: parseCommandArgs › should handle tabs as separators
    split_tabs: "a\tb\tc" => ["a", "b", "c"];
    /// orig: parseCommandArgs › should handle quoted empty string
    split_empty_quotes_skipped: "\"\" \" \"" => [" "];
    /// orig: parseCommandArgs › should handle arguments with special characters
    split_special_characters: "$100 @user #tag" => ["$100", "@user", "#tag"];
    /// orig: parseCommandArgs › should handle unicode characters
    split_unicode: "日本語 🎉 café" => ["日本語", "🎉", "café"];
    /// orig: parseCommandArgs › should handle newlines in arguments
    split_newline_in_quotes: "\"line1\nline2\" second" => ["line1\nline2", "second"];
    /// orig: parseCommandArgs › should handle escaped quotes inside quoted strings
    split_backslash_is_literal: "\"quoted \\\"text\\\"\"" => ["quoted \\text\\"];
    /// orig: parseCommandArgs › should handle trailing spaces
    split_trailing_spaces: "a b c   " => ["a", "b", "c"];
    /// orig: parseCommandArgs › should handle leading spaces
    split_leading_spaces: "   a b c" => ["a", "b", "c"];
}

/// orig: parseCommandArgs + substituteArgs integration › should parse and substitute together correctly
#[test]
fn parse_then_substitute() {
    let args = parse_args("Button \"onClick handler\" \"disabled support\"");
    assert_eq!(
        substitute_args("Create component $1 with features: $ARGUMENTS", &args),
        "Create component Button with features: Button onClick handler disabled support"
    );
}

/// orig: parseCommandArgs + substituteArgs integration › should handle the example from README
#[test]
fn readme_example() {
    let args = parse_args("Button \"onClick handler\" \"disabled support\"");
    assert_eq!(
        substitute_args(
            "Create a React component named $1 with features: $ARGUMENTS",
            &args
        ),
        "Create a React component named Button with features: Button onClick handler disabled support"
    );
}

/// orig: parseCommandArgs + substituteArgs integration › should produce same result with $@ and $ARGUMENTS
#[test]
fn parsed_args_same_for_both_syntaxes() {
    let args = parse_args("feature1 feature2 feature3");
    assert_eq!(
        substitute_args("Implement: $@", &args),
        substitute_args("Implement: $ARGUMENTS", &args)
    );
    assert_eq!(
        substitute_args("Implement: $@", &args),
        "Implement: feature1 feature2 feature3"
    );
}
