//! Board pictures: an SVG image of a position on its own board size, with
//! file letters and rank numbers, an optional highlight of the last move
//! and an optional arrow (a best move), drawn from either side.
//!
//! ```
//! use peasant::explore::svg::{board_svg, SvgOptions};
//! use peasant::{rules::{parse_position, Board, Rules}};
//!
//! let pos = parse_position("pawngame", Some(Board::new(5, 5).unwrap()), Rules::default()).unwrap();
//! let svg = board_svg(&pos, &SvgOptions::default());
//! assert!(svg.starts_with("<svg"));
//! assert_eq!(svg.matches("class=\"pawn white\"").count(), 5);
//! ```

use crate::rules::{Color, Position, Square};
use std::fmt::Write;

/// What to draw besides the pawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SvgOptions {
    /// Highlight the origin and target squares of this move (from, to).
    pub last_move: Option<(Square, Square)>,
    /// Draw an arrow from the first square to the second (a best move).
    pub arrow: Option<(Square, Square)>,
    /// Draw the board from black's side (rank 1 at the top).
    pub flipped: bool,
    /// Side length of one square in pixels (0: the default, 48).
    pub square_px: u32,
}

const LIGHT: &str = "#f0e6d2";
const DARK: &str = "#c8ad8a";
const HIGHLIGHT: &str = "#e8d35a";
const ARROW: &str = "#2f7d32";
const MARGIN: u32 = 20;

/// Whether both squares of `squares` are on `board` (a picture marks no
/// other squares).
pub fn on_board(board: crate::rules::Board, squares: (Square, Square)) -> bool {
    let on = |s: Square| s.file() < board.width() && s.rank() < board.height();
    on(squares.0) && on(squares.1)
}

/// Parses a long-form move (`e2e4`) into its two squares.
pub fn parse_uci_squares(text: &str) -> Option<(Square, Square)> {
    let t = text.trim();
    if !t.is_ascii() || t.len() != 4 {
        return None;
    }
    Some((Square::parse(&t[..2])?, Square::parse(&t[2..])?))
}

/// The SVG picture of `pos`. Every square is a `rect` with a
/// `data-square` attribute (`e4`), so a page can tell which one was
/// clicked.
pub fn board_svg(pos: &Position, options: &SvgOptions) -> String {
    let board = pos.board();
    // Squares off the board are not marked.
    let options = &SvgOptions {
        last_move: options.last_move.filter(|&sq| on_board(board, sq)),
        arrow: options.arrow.filter(|&sq| on_board(board, sq)),
        ..*options
    };
    let (w, h) = (board.width() as u32, board.height() as u32);
    let s = if options.square_px == 0 {
        48
    } else {
        options.square_px
    };
    let (width, height) = (2 * MARGIN + w * s, 2 * MARGIN + h * s);
    // Top-left corner of a square in pixels.
    let corner = |sq: Square| -> (u32, u32) {
        let (f, r) = (sq.file() as u32, sq.rank() as u32);
        let (col, row) = if options.flipped {
            (w - 1 - f, r)
        } else {
            (f, h - 1 - r)
        };
        (MARGIN + col * s, MARGIN + row * s)
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" viewBox=\"0 0 {width} {height}\" \
         width=\"{width}\" height=\"{height}\" class=\"board\">\n\
         <rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#fbf8f2\"/>\n"
    );
    let lit = |sq: Square| options.last_move.is_some_and(|(a, b)| a == sq || b == sq);
    for rank in 0..h as u8 {
        for file in 0..w as u8 {
            let sq = Square::new(file, rank);
            let (x, y) = corner(sq);
            let fill = if lit(sq) {
                HIGHLIGHT
            } else if (file + rank) % 2 == 0 {
                DARK
            } else {
                LIGHT
            };
            let _ = writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{s}\" height=\"{s}\" fill=\"{fill}\" data-square=\"{sq}\"/>"
            );
        }
    }
    // Coordinates: file letters below, rank numbers on the left.
    let font = (s / 3).clamp(10, MARGIN - 4);
    for file in 0..w as u8 {
        let (x, _) = corner(Square::new(file, 0));
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{font}\" font-family=\"sans-serif\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            x + s / 2,
            height - MARGIN / 2 + font / 3,
            crate::rules::file_char(file)
        );
    }
    for rank in 0..h as u8 {
        let (_, y) = corner(Square::new(0, rank));
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{font}\" font-family=\"sans-serif\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            MARGIN / 2,
            y + s / 2 + font / 3,
            rank + 1
        );
    }
    for color in [Color::White, Color::Black] {
        for sq in pos.pawns(color) {
            let (x, y) = corner(sq);
            pawn(&mut out, x, y, s, color, sq);
        }
    }
    if let Some(ep) = pos.ep_square() {
        let (x, y) = corner(ep);
        let _ = writeln!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"#777\" stroke-dasharray=\"3 3\" class=\"ep\" pointer-events=\"none\"/>",
            x + s / 2,
            y + s / 2,
            s / 5
        );
    }
    if let Some((from, to)) = options.arrow {
        let (x1, y1) = corner(from);
        let (x2, y2) = corner(to);
        let (x1, y1) = ((x1 + s / 2) as f64, (y1 + s / 2) as f64);
        let (x2, y2) = ((x2 + s / 2) as f64, (y2 + s / 2) as f64);
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ux, uy) = (dx / len, dy / len);
        let head = s as f64 * 0.38;
        // The shaft ends where the head begins; the head is a triangle.
        let (bx, by) = (x2 - ux * head, y2 - uy * head);
        let (px, py) = (-uy * head * 0.55, ux * head * 0.55);
        let _ = writeln!(
            out,
            "<g class=\"arrow\" opacity=\"0.8\" pointer-events=\"none\"><line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" \
             stroke=\"{ARROW}\" stroke-width=\"{:.1}\" stroke-linecap=\"round\"/>\
             <polygon points=\"{x2:.1},{y2:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{ARROW}\"/></g>",
            s as f64 * 0.16,
            bx + px,
            by + py,
            bx - px,
            by - py
        );
    }
    out.push_str("</svg>\n");
    out
}

/// A pawn: a head on a neck on a base, white with a dark outline or black.
fn pawn(out: &mut String, x: u32, y: u32, s: u32, color: Color, sq: Square) {
    let (fill, stroke, name) = match color {
        Color::White => ("#ffffff", "#222222", "white"),
        Color::Black => ("#2b2b2b", "#000000", "black"),
    };
    let f = s as f64 / 48.0;
    let (x, y) = (x as f64, y as f64);
    let p = |px: f64, py: f64| format!("{:.1},{:.1}", x + px * f, y + py * f);
    let _ = writeln!(
        out,
        "<g class=\"pawn {name}\" data-square=\"{sq}\" pointer-events=\"none\">\
         <path d=\"M {} L {} Q {} {} L {} Q {} {} Z\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{:.1}\"/>\
         <circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{:.1}\"/></g>",
        p(12.0, 40.0),
        p(36.0, 40.0),
        p(36.0, 33.0),
        p(28.0, 29.0),
        p(20.0, 29.0),
        p(12.0, 33.0),
        p(12.0, 40.0),
        1.5 * f,
        x + 24.0 * f,
        y + 21.0 * f,
        8.0 * f,
        1.5 * f
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{parse_position, Board, Rules};

    #[test]
    fn squares_pawns_and_marks() {
        let pos = parse_position("4/1p2/4/2P1/4 w -", None, Rules::default()).unwrap();
        assert_eq!(pos.board(), Board::new(4, 5).unwrap());
        let svg = board_svg(
            &pos,
            &SvgOptions {
                last_move: parse_uci_squares("c2c3"),
                arrow: parse_uci_squares("c3c4"),
                ..SvgOptions::default()
            },
        );
        assert_eq!(svg.matches("<rect x=").count(), 1 + 20);
        assert_eq!(svg.matches("class=\"pawn white\"").count(), 1);
        assert_eq!(svg.matches("class=\"pawn black\"").count(), 1);
        assert_eq!(svg.matches(HIGHLIGHT).count(), 2);
        assert_eq!(svg.matches("class=\"arrow\"").count(), 1);
        // a1 is bottom-left from white's side and top-right from black's.
        assert!(svg.contains("<rect x=\"20\" y=\"212\" width=\"48\" height=\"48\" fill=\"#c8ad8a\" data-square=\"a1\"/>"));
        let flipped = board_svg(
            &pos,
            &SvgOptions {
                flipped: true,
                ..SvgOptions::default()
            },
        );
        assert!(flipped.contains("<rect x=\"164\" y=\"20\" width=\"48\" height=\"48\" fill=\"#c8ad8a\" data-square=\"a1\"/>"));
        assert_eq!(parse_uci_squares("c3"), None);
        assert_eq!(parse_uci_squares("z9a1"), None);
        // Squares off a 1x5 board are not marked, even flipped (this
        // panicked: the fuzz regression arrow-off-a-flipped-board).
        let pos = crate::rules::parse_position(
            "pawngame",
            Some("1x5".parse().unwrap()),
            Default::default(),
        )
        .unwrap();
        let options = SvgOptions {
            last_move: parse_uci_squares("a2a3"),
            arrow: parse_uci_squares("b2b4"),
            flipped: true,
            square_px: 0,
        };
        assert!(!on_board(pos.board(), options.arrow.unwrap()));
        let svg = board_svg(&pos, &options);
        assert_eq!(
            svg,
            board_svg(
                &pos,
                &SvgOptions {
                    arrow: None,
                    ..options
                }
            )
        );
    }
}
