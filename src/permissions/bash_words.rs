//! A bash command split, with a real shell parser, into every simple command it would run:
//! each stage of a pipeline, each member of a list, subshells, groups, loops and
//! conditionals, command and process substitutions, and what wrappers such as `sudo`, `env`,
//! `xargs`, `nice`, `timeout` and `bash -c` start. Each is judged on its own.

use brush_parser::ast;
use brush_parser::word::{WordPiece, WordPieceWithSource};
use brush_parser::{Parser, ParserOptions};

use super::error::SplitError;
use super::wrappers::unwrap;

/// How deep scripts inside scripts (`bash -c "sh -c '…'"`) are followed.
const MAX_DEPTH: usize = 12;

/// One command the shell would run, its words with the quoting removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleCommand {
    /// The words: the command name first.
    pub words: Vec<String>,
    /// Files written through `>`, `>>`, `>|` or `&>`.
    pub writes: Vec<String>,
    /// The command name is only known when it runs (`$cmd`, `$(…)`).
    pub dynamic_name: bool,
    /// Which pipeline it belongs to, and its stage there (for `curl … | sh`).
    pub pipeline: usize,
    /// Its stage in that pipeline (0 for the first).
    pub stage: usize,
    /// Whether it was started by another command (`sudo X`, `xargs X`): then `X`.
    pub wrapped: bool,
}

impl SimpleCommand {
    /// The command as rules see it: its words joined by single spaces.
    pub fn text(&self) -> String {
        self.words.join(" ")
    }

    /// The command name without its folder (`/usr/bin/git` → `git`).
    pub fn name(&self) -> &str {
        let first = self.words.first().map(String::as_str).unwrap_or("");
        first.rsplit('/').next().unwrap_or(first)
    }
}

/// The text of every simple command of `script` (none when it cannot be parsed).
pub fn command_texts(script: &str) -> Vec<String> {
    split(script)
        .map(|c| c.iter().map(SimpleCommand::text).collect())
        .unwrap_or_default()
}

/// Every simple command of `script`, or why it cannot be parsed.
pub fn split(script: &str) -> Result<Vec<SimpleCommand>, SplitError> {
    let mut walker = Walker::default();
    walker.script(script, 0)?;
    Ok(walker.out)
}

fn syntax(e: impl std::fmt::Display) -> SplitError {
    SplitError::Syntax {
        detail: e.to_string(),
    }
}

#[derive(Default)]
struct Walker {
    out: Vec<SimpleCommand>,
    pipelines: usize,
}

impl Walker {
    fn script(&mut self, script: &str, depth: usize) -> Result<(), SplitError> {
        if depth > MAX_DEPTH {
            return Err(SplitError::TooDeep);
        }
        let options = ParserOptions::default();
        let mut parser = Parser::new(std::io::BufReader::new(script.as_bytes()), &options);
        let program = parser.parse_program().map_err(syntax)?;
        for list in &program.complete_commands {
            self.list(list, depth)?;
        }
        Ok(())
    }

    fn list(&mut self, list: &ast::CompoundList, depth: usize) -> Result<(), SplitError> {
        for ast::CompoundListItem(and_or, _) in &list.0 {
            self.pipeline(&and_or.first, depth)?;
            for next in &and_or.additional {
                match next {
                    ast::AndOr::And(p) | ast::AndOr::Or(p) => self.pipeline(p, depth)?,
                }
            }
        }
        Ok(())
    }

    fn pipeline(&mut self, pipeline: &ast::Pipeline, depth: usize) -> Result<(), SplitError> {
        let id = self.pipelines;
        self.pipelines += 1;
        for (stage, command) in pipeline.seq.iter().enumerate() {
            self.command(command, (id, stage), depth)?;
        }
        Ok(())
    }

    fn command(
        &mut self,
        command: &ast::Command,
        at: (usize, usize),
        depth: usize,
    ) -> Result<(), SplitError> {
        match command {
            ast::Command::Simple(simple) => self.simple(simple, at, depth),
            ast::Command::Compound(compound, redirects) => {
                let mut writes = Vec::new();
                if let Some(list) = redirects {
                    for r in &list.0 {
                        self.redirect(r, &mut writes, depth)?;
                    }
                }
                if !writes.is_empty() {
                    // `{ …; } > file` writes the file whatever runs inside.
                    self.out.push(SimpleCommand {
                        words: vec![":".into()],
                        writes,
                        dynamic_name: false,
                        pipeline: at.0,
                        stage: at.1,
                        wrapped: false,
                    });
                }
                self.compound(compound, at, depth)
            }
            ast::Command::Function(f) => self.compound(&f.body.0, at, depth),
            ast::Command::ExtendedTest(test, _) => self.test_expr(&test.expr, depth),
        }
    }

    fn compound(
        &mut self,
        compound: &ast::CompoundCommand,
        at: (usize, usize),
        depth: usize,
    ) -> Result<(), SplitError> {
        use ast::CompoundCommand as C;
        match compound {
            C::Arithmetic(a) => self.opaque(&a.expr.value),
            C::ArithmeticForClause(f) => {
                for e in [&f.initializer, &f.condition, &f.updater]
                    .into_iter()
                    .flatten()
                {
                    self.opaque(&e.value)?;
                }
                self.list(&f.body.list, depth)
            }
            C::BraceGroup(g) => self.list(&g.list, depth),
            C::Subshell(s) => self.list(&s.list, depth),
            C::ForClause(f) => {
                for w in f.values.iter().flatten() {
                    self.word(&w.value, depth)?;
                }
                self.list(&f.body.list, depth)
            }
            C::CaseClause(c) => {
                self.word(&c.value.value, depth)?;
                for item in &c.cases {
                    for p in &item.patterns {
                        self.word(&p.value, depth)?;
                    }
                    if let Some(cmd) = &item.cmd {
                        self.list(cmd, depth)?;
                    }
                }
                Ok(())
            }
            C::IfClause(i) => {
                self.list(&i.condition, depth)?;
                self.list(&i.then, depth)?;
                for e in i.elses.iter().flatten() {
                    if let Some(c) = &e.condition {
                        self.list(c, depth)?;
                    }
                    self.list(&e.body, depth)?;
                }
                Ok(())
            }
            C::WhileClause(w) | C::UntilClause(w) => {
                self.list(&w.0, depth)?;
                self.list(&w.1.list, depth)
            }
            C::Coprocess(c) => self.command(&c.body, at, depth),
        }
    }

    fn test_expr(&mut self, expr: &ast::ExtendedTestExpr, depth: usize) -> Result<(), SplitError> {
        use ast::ExtendedTestExpr as E;
        match expr {
            E::And(a, b) | E::Or(a, b) => {
                self.test_expr(a, depth)?;
                self.test_expr(b, depth)
            }
            E::Not(a) | E::Parenthesized(a) => self.test_expr(a, depth),
            E::UnaryTest(_, w) => self.word(&w.value, depth).map(drop),
            E::BinaryTest(_, a, b) => {
                self.word(&a.value, depth)?;
                self.word(&b.value, depth).map(drop)
            }
        }
    }

    /// Text the parser keeps unparsed (arithmetic): refused if it could run a command.
    fn opaque(&mut self, text: &str) -> Result<(), SplitError> {
        if text.contains("$(") || text.contains('`') {
            return Err(SplitError::ArithmeticCommand);
        }
        Ok(())
    }

    fn simple(
        &mut self,
        simple: &ast::SimpleCommand,
        at: (usize, usize),
        depth: usize,
    ) -> Result<(), SplitError> {
        let mut words = Vec::new();
        let mut writes = Vec::new();
        for item in simple.prefix.iter().flat_map(|p| p.0.iter()) {
            self.item(item, None, &mut writes, depth)?;
        }
        let mut dynamic_name = false;
        if let Some(name) = &simple.word_or_name {
            let (text, dynamic) = self.word(&name.value, depth)?;
            // A `$` left in a name after a script was handed on (`bash -c "$cmd"`) is an
            // expansion too.
            dynamic_name = dynamic || text.contains('$');
            words.push(text);
        }
        for item in simple.suffix.iter().flat_map(|s| s.0.iter()) {
            self.item(item, Some(&mut words), &mut writes, depth)?;
        }
        if words.is_empty() && writes.is_empty() {
            return Ok(());
        }
        let inner = unwrap(&words);
        self.out.push(SimpleCommand {
            words,
            writes,
            dynamic_name,
            pipeline: at.0,
            stage: at.1,
            wrapped: false,
        });
        match inner {
            Some(inner) => self.inner(inner, at, depth + 1),
            None => Ok(()),
        }
    }

    fn item(
        &mut self,
        item: &ast::CommandPrefixOrSuffixItem,
        words: Option<&mut Vec<String>>,
        writes: &mut Vec<String>,
        depth: usize,
    ) -> Result<(), SplitError> {
        use ast::CommandPrefixOrSuffixItem as I;
        match item {
            I::Word(w) => {
                let text = self.word(&w.value, depth)?.0;
                if let Some(words) = words {
                    words.push(text);
                }
            }
            // `A=$(cmd) x`: the assignment's value runs `cmd`; after the command name
            // (`env A=1 x`) it is an argument like any other.
            I::AssignmentWord(a, w) => match words {
                Some(words) => words.push(self.word(&w.value, depth)?.0),
                None => self.assignment(a, depth)?,
            },
            I::IoRedirect(r) => self.redirect(r, writes, depth)?,
            I::ProcessSubstitution(_, sub) => self.list(&sub.list, depth)?,
        }
        Ok(())
    }

    fn inner(
        &mut self,
        inner: super::wrappers::Inner,
        at: (usize, usize),
        depth: usize,
    ) -> Result<(), SplitError> {
        if depth > MAX_DEPTH {
            return Err(SplitError::TooDeep);
        }
        match inner {
            super::wrappers::Inner::Script(script) => self.script(&script, depth),
            super::wrappers::Inner::Words(words) if words.is_empty() => Ok(()),
            super::wrappers::Inner::Words(words) => {
                let next = unwrap(&words);
                // `sudo $cmd`: words keep `$` where a value is only known at run time.
                let dynamic_name = words[0].contains('$');
                self.out.push(SimpleCommand {
                    words,
                    writes: Vec::new(),
                    dynamic_name,
                    pipeline: at.0,
                    stage: at.1,
                    wrapped: true,
                });
                match next {
                    Some(next) => self.inner(next, at, depth + 1),
                    None => Ok(()),
                }
            }
        }
    }

    fn assignment(&mut self, a: &ast::Assignment, depth: usize) -> Result<(), SplitError> {
        match &a.value {
            ast::AssignmentValue::Scalar(w) => {
                self.word(&w.value, depth)?;
            }
            ast::AssignmentValue::Array(items) => {
                for (key, w) in items {
                    if let Some(k) = key {
                        self.word(&k.value, depth)?;
                    }
                    self.word(&w.value, depth)?;
                }
            }
        }
        Ok(())
    }

    fn redirect(
        &mut self,
        redirect: &ast::IoRedirect,
        writes: &mut Vec<String>,
        depth: usize,
    ) -> Result<(), SplitError> {
        use ast::IoFileRedirectKind as K;
        match redirect {
            ast::IoRedirect::File(_, kind, target) => match target {
                ast::IoFileRedirectTarget::Filename(w) => {
                    let (text, _) = self.word(&w.value, depth)?;
                    if matches!(kind, K::Write | K::Append | K::Clobber | K::ReadAndWrite) {
                        writes.push(text);
                    }
                    Ok(())
                }
                ast::IoFileRedirectTarget::ProcessSubstitution(_, sub) => {
                    self.list(&sub.list, depth)
                }
                ast::IoFileRedirectTarget::Duplicate(w) => self.word(&w.value, depth).map(drop),
                ast::IoFileRedirectTarget::Fd(_) => Ok(()),
            },
            ast::IoRedirect::OutputAndError(w, _) => {
                writes.push(self.word(&w.value, depth)?.0);
                Ok(())
            }
            ast::IoRedirect::HereString(_, w) => self.word(&w.value, depth).map(drop),
            ast::IoRedirect::HereDocument(_, doc) => {
                if doc.requires_expansion {
                    let pieces = brush_parser::word::parse_heredoc(
                        &doc.doc.value,
                        &ParserOptions::default(),
                    )
                    .map_err(syntax)?;
                    self.pieces(&pieces, depth)?;
                }
                Ok(())
            }
        }
    }

    /// A word without its quoting, running the commands it substitutes; and whether its
    /// value is only known at run time.
    fn word(&mut self, raw: &str, depth: usize) -> Result<(String, bool), SplitError> {
        let pieces = brush_parser::word::parse(raw, &ParserOptions::default()).map_err(syntax)?;
        self.pieces(&pieces, depth)
    }

    fn pieces(
        &mut self,
        pieces: &[WordPieceWithSource],
        depth: usize,
    ) -> Result<(String, bool), SplitError> {
        let mut text = String::new();
        let mut dynamic = false;
        for p in pieces {
            match &p.piece {
                WordPiece::Text(s) | WordPiece::SingleQuotedText(s) => text.push_str(s),
                WordPiece::AnsiCQuotedText(s) => text.push_str(s),
                WordPiece::EscapeSequence(s) => text.push_str(s.strip_prefix('\\').unwrap_or(s)),
                WordPiece::DoubleQuotedSequence(inner)
                | WordPiece::GettextDoubleQuotedSequence(inner) => {
                    let (t, d) = self.pieces(inner, depth)?;
                    text.push_str(&t);
                    dynamic |= d;
                }
                WordPiece::TildeExpansion(t) => {
                    text.push('~');
                    if let brush_parser::word::TildeExpr::UserHome(user) = t {
                        text.push_str(user);
                    }
                }
                WordPiece::ParameterExpansion(expr) => {
                    let shown = format!("{expr:?}");
                    // `${x:-$(cmd)}`: a command hidden in a default value.
                    if shown.contains("$(") || shown.contains('`') {
                        return Err(SplitError::ExpansionCommand);
                    }
                    text.push('$');
                    dynamic = true;
                }
                WordPiece::CommandSubstitution(script)
                | WordPiece::BackquotedCommandSubstitution(script) => {
                    self.script(script, depth + 1)?;
                    text.push_str("$(…)");
                    dynamic = true;
                }
                WordPiece::ArithmeticExpression(e) => {
                    self.opaque(&e.value)?;
                    text.push_str("$((…))");
                    dynamic = true;
                }
            }
        }
        Ok((text, dynamic))
    }
}
