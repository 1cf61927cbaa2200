//! The proof's unit of work as small typed values: a [`Pair`] (a position
//! and one of its two questions) and [`ByQuestion`], what is kept for each
//! of a position's two questions.

use crate::rules::{position_key, Position};
use crate::solve::Question;
use std::ops::{Index, IndexMut};

/// A position, by the key of its canonical form, and a question about it:
/// what one job answers and one log line records.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Pair {
    /// [`position_key`] of the canonical
    /// position.
    pub key: u128,
    /// The question asked of its side to move.
    pub question: Question,
}

impl Pair {
    /// The pair of position `key` and `question`.
    pub const fn new(key: u128, question: Question) -> Pair {
        Pair { key, question }
    }

    /// The pair of `pos` (canonical, as the manager keeps positions) and
    /// `question`.
    pub fn of(pos: &Position, question: Question) -> Pair {
        Pair::new(position_key(pos), question)
    }
}

/// One `T` for each question of a position, indexed by [`Question`] (as
/// shakmaty's `ByColor` is by colour). Iteration goes [`Question::Wins`]
/// first, then [`Question::AvoidsLoss`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByQuestion<T> {
    /// For "does the side to move win?".
    pub wins: T,
    /// For "does the side to move avoid losing?".
    pub avoids_loss: T,
}

/// Both questions, in [`ByQuestion`]'s order.
pub const QUESTIONS: [Question; 2] = [Question::Wins, Question::AvoidsLoss];

impl<T> ByQuestion<T> {
    /// One value for each question, made by `f`.
    pub fn new_with(mut f: impl FnMut(Question) -> T) -> ByQuestion<T> {
        ByQuestion {
            wins: f(Question::Wins),
            avoids_loss: f(Question::AvoidsLoss),
        }
    }

    /// Each value mapped through `f`.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByQuestion<U> {
        ByQuestion {
            wins: f(self.wins),
            avoids_loss: f(self.avoids_loss),
        }
    }

    /// References to the values.
    pub const fn as_ref(&self) -> ByQuestion<&T> {
        ByQuestion {
            wins: &self.wins,
            avoids_loss: &self.avoids_loss,
        }
    }

    /// The values, [`Question::Wins`]'s first.
    pub fn iter(&self) -> std::array::IntoIter<&T, 2> {
        [&self.wins, &self.avoids_loss].into_iter()
    }

    /// Each question with its value, [`Question::Wins`] first.
    pub fn zip_questions(self) -> std::array::IntoIter<(Question, T), 2> {
        [
            (Question::Wins, self.wins),
            (Question::AvoidsLoss, self.avoids_loss),
        ]
        .into_iter()
    }
}

impl<T> Index<Question> for ByQuestion<T> {
    type Output = T;

    #[inline]
    fn index(&self, q: Question) -> &T {
        match q {
            Question::Wins => &self.wins,
            Question::AvoidsLoss => &self.avoids_loss,
        }
    }
}

impl<T> IndexMut<Question> for ByQuestion<T> {
    #[inline]
    fn index_mut(&mut self, q: Question) -> &mut T {
        match q {
            Question::Wins => &mut self.wins,
            Question::AvoidsLoss => &mut self.avoids_loss,
        }
    }
}

impl<T> IntoIterator for ByQuestion<T> {
    type Item = T;
    type IntoIter = std::array::IntoIter<T, 2>;

    fn into_iter(self) -> Self::IntoIter {
        [self.wins, self.avoids_loss].into_iter()
    }
}

impl<'a, T> IntoIterator for &'a ByQuestion<T> {
    type Item = &'a T;
    type IntoIter = std::array::IntoIter<&'a T, 2>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexed_by_question_in_order() {
        let mut b = ByQuestion::new_with(|q| q == Question::Wins);
        assert!(b[Question::Wins] && !b[Question::AvoidsLoss]);
        b[Question::AvoidsLoss] = true;
        assert_eq!(
            b,
            ByQuestion {
                wins: true,
                avoids_loss: true
            }
        );
        let n = ByQuestion {
            wins: 1,
            avoids_loss: 2,
        };
        assert_eq!(
            n.map(|x| x * 10),
            ByQuestion {
                wins: 10,
                avoids_loss: 20
            }
        );
        assert_eq!(n.iter().copied().collect::<Vec<_>>(), [1, 2]);
        assert_eq!(n.into_iter().collect::<Vec<_>>(), [1, 2]);
        let qs: Vec<Question> = n.zip_questions().map(|(q, _)| q).collect();
        assert_eq!(qs, QUESTIONS);
        for q in QUESTIONS {
            assert_eq!(n[q], n[q.other().other()]);
            assert_ne!(n[q], n[q.other()]);
        }
    }
}
