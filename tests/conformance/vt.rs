//! A small terminal screen for checking what the renderer's bytes draw: printable text,
//! CR, LF (scrolling at the bottom), cursor up/down/right, erase line and below, clear
//! screen and home, SGR italic; other sequences are skipped.

/// One cell: its character and whether it is italic.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Cell {
    pub ch: char,
    pub italic: bool,
}

const BLANK: Cell = Cell {
    ch: ' ',
    italic: false,
};

/// A screen of `rows` x `cols` cells with a cursor.
pub struct Screen {
    pub cols: usize,
    pub rows: usize,
    pub cells: Vec<Vec<Cell>>,
    pub row: usize,
    pub col: usize,
    italic: bool,
    /// Times the screen was cleared whole (`ESC [ 2 J`).
    pub clears: usize,
}

impl Screen {
    pub fn new(cols: usize, rows: usize) -> Screen {
        Screen {
            cols,
            rows,
            cells: vec![vec![BLANK; cols]; rows],
            row: 0,
            col: 0,
            italic: false,
            clears: 0,
        }
    }

    /// The screen's rows as text, trailing spaces removed.
    pub fn text(&self) -> Vec<String> {
        self.cells
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| c.ch)
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect()
    }

    /// The first row whose text contains `needle`.
    pub fn row_of(&self, needle: &str) -> Option<usize> {
        self.text().iter().position(|r| r.contains(needle))
    }

    fn line_feed(&mut self) {
        if self.row + 1 < self.rows {
            self.row += 1;
        } else {
            self.cells.remove(0);
            self.cells.push(vec![BLANK; self.cols]);
        }
    }

    fn put(&mut self, ch: char) {
        if self.col >= self.cols {
            return;
        }
        let wide = pi::ui_kit::text::width(ch.encode_utf8(&mut [0; 4])) == 2;
        self.cells[self.row][self.col] = Cell {
            ch,
            italic: self.italic,
        };
        self.col += 1;
        if wide && self.col < self.cols {
            self.cells[self.row][self.col] = Cell {
                ch: '\u{0}',
                italic: self.italic,
            };
            self.col += 1;
        }
    }

    fn sgr(&mut self, params: &str) {
        let mut parts = params.split(';').peekable();
        if params.is_empty() {
            self.italic = false;
        }
        while let Some(p) = parts.next() {
            match p {
                "0" | "" => self.italic = false,
                "3" => self.italic = true,
                "23" => self.italic = false,
                "38" | "48" | "58" => {
                    // Extended colour: skip its arguments.
                    match parts.next() {
                        Some("5") => {
                            parts.next();
                        }
                        Some("2") => {
                            parts.next();
                            parts.next();
                            parts.next();
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }

    /// Apply the bytes a frame writes.
    pub fn feed(&mut self, bytes: &str) {
        let mut chars = bytes.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' => self.col = 0,
                '\n' => self.line_feed(),
                '\x1b' => match chars.next() {
                    Some('[') => {
                        let mut params = String::new();
                        let mut end = ' ';
                        for c in chars.by_ref() {
                            if ('\x40'..='\x7e').contains(&c) {
                                end = c;
                                break;
                            }
                            params.push(c);
                        }
                        let n = params.parse::<usize>().unwrap_or(1).max(1);
                        match end {
                            'A' => self.row = self.row.saturating_sub(n),
                            'B' => self.row = (self.row + n).min(self.rows - 1),
                            'C' => self.col = (self.col + n).min(self.cols - 1),
                            'H' => {
                                self.row = 0;
                                self.col = 0;
                            }
                            'K' => {
                                let from = if params == "2" { 0 } else { self.col };
                                for cell in &mut self.cells[self.row][from..] {
                                    *cell = BLANK;
                                }
                            }
                            'J' => match params.as_str() {
                                "2" => {
                                    self.clears += 1;
                                    self.cells = vec![vec![BLANK; self.cols]; self.rows];
                                }
                                "3" => {}
                                _ => {
                                    for cell in &mut self.cells[self.row][self.col..] {
                                        *cell = BLANK;
                                    }
                                    for r in self.row + 1..self.rows {
                                        self.cells[r] = vec![BLANK; self.cols];
                                    }
                                }
                            },
                            'm' => self.sgr(&params),
                            _ => {}
                        }
                    }
                    // OSC, APC, DCS: skip to the string terminator (BEL or ESC \).
                    Some(']' | '_' | 'P') => {
                        while let Some(c) = chars.next() {
                            if c == '\x07' {
                                break;
                            }
                            if c == '\x1b' && chars.peek() == Some(&'\\') {
                                chars.next();
                                break;
                            }
                        }
                    }
                    _ => {}
                },
                c if c.is_control() => {}
                c => self.put(c),
            }
        }
    }
}
