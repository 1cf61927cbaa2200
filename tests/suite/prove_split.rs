//! The manager's choice of jobs, by hand with stand-in workers: an
//! `--all-moves` proof settles the root first, an idle worker splits a
//! running job (logged at once, surviving a resume and a merge), a
//! running job is named by its line of moves and its question, and the
//! proof keeps to the moves it has spent on.

#[allow(unused_imports)]
use crate::common::proof::*;
use crate::common::*;
use peasant::prove::{self, Answer, LogContents, LogWriter, Manager, ManagerConfig, RunEnd};
use peasant::rules::Position;
use peasant::*;

/// An `--all-moves` proof settles the root's value first. As in the 6x8
/// proof, the log says black avoids losing after 1.a4: the first two jobs
/// are then what "does white win?" at the start still needs, "does black
/// avoid losing?" after 1.b4 and after 1.c4 (1.d4 and 1.e4 are their mirror
/// images), not "does black win?" after 1.a4 or 1.b4, which only the
/// first moves' own values need (the mutant: the first moves alone as
/// goals, as before, asks those first).
#[test]
fn an_all_moves_proof_settles_the_root_first() {
    use peasant::solve::Question;
    let pos = position("peasants", "5x8", true);
    let dir = temp_dir("prove-root-first");
    let after = |mv: &str| rules::canonical(&pos.play(pos.parse_move(mv).unwrap()));
    let mut writer = LogWriter::open(&dir, pos.variant()).unwrap();
    writer
        .append_job(&prove::JobRecord {
            pos: after("a4"),
            question: Question::AvoidsLoss,
            answer: Answer::Yes,
            nodes: 1000,
            seconds: 0.1,
            best: None,
            id: 1,
            dep: 0,
            kind: prove::LineKind::Job,
        })
        .unwrap();
    writer.sync().unwrap();
    drop(writer);
    let config = expanding(1000, 2);
    let mut m = Manager::new(pos, config, &read(&dir, pos.variant()));
    let mut asked: Vec<(String, bool)> = (0..2)
        .map(|_| {
            let job = m.next_job().unwrap();
            (job.pos.to_string(), job.question == Question::AvoidsLoss)
        })
        .collect();
    asked.sort();
    let mut expected = vec![
        (after("b4").to_string(), true),
        (after("c4").to_string(), true),
    ];
    expected.sort();
    assert_eq!(asked, expected, "(position, asks 'does it avoid losing?')");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A worker that finds no free leaf splits a running job: the proof of
/// the pawn game 5x5's start (a draw; its value only) is two questions at
/// first, so the third of three workers gets a question one ply below
/// them. The split job then answers its own question ("does white win?",
/// no) while the jobs below, answered truly (a fresh solver), settle the
/// other and make its job unneeded; the value is solve's. The lines the
/// manager logged name only earlier lines as their `dep` (what a merge
/// keeps), and a manager resumed from them, as after a kill with the split
/// job's line lost as well, knows the value without a job. Mutants: no
/// split (the third worker gets no job); the split not logged at once (the
/// resumed manager asks the start's question again).
#[test]
fn an_idle_worker_splits_a_running_job() {
    use peasant::solve::Question;
    let StartProof {
        pos,
        solver,
        config,
        mut log,
        mut m,
        wins,
        avoids,
    } = start_proof_5x5(3, 1000);
    let root_key = rules::position_key(&rules::canonical(&pos));
    for job in [&wins, &avoids] {
        assert_eq!(rules::position_key(&job.pos), root_key);
    }
    let third = m.next_job().expect("a job below the running ones");
    let children: Vec<u128> = pos
        .legal_moves()
        .iter()
        .map(|&mv| rules::position_key(&rules::canonical(&pos.play(mv))))
        .collect();
    assert!(children.contains(&rules::position_key(&third.pos)));
    log.jobs.extend(m.take_records());
    // The job on "does white win?" answers itself, truly (no).
    finish_into(&mut m, &true_result(&solver, &wins), &mut log);
    // The third worker answers every job it is given until "does white
    // avoid losing?" follows from the children; that job is cancelled.
    let mut job = third;
    let mut answered = 0;
    loop {
        finish_into(&mut m, &true_result(&solver, &job), &mut log);
        answered += 1;
        if m.unneeded_jobs().contains(&avoids.id) {
            break;
        }
        assert!(answered < 500, "the jobs below never settled the start");
        job = m.next_job().expect("the third worker is never idle");
    }
    finish_into(&mut m, &result_of(avoids.id, Answer::Open, true), &mut log);
    assert!(m.done());
    let value = solver.solve_root(&pos, &|_, _| {}).unwrap().value.wdl;
    assert_eq!(m.value(), Some(value));
    let mut earlier = std::collections::HashSet::from([0]);
    for line in &log.jobs {
        assert!(earlier.contains(&line.dep), "a later dep: {line:?}");
        earlier.insert(line.id);
    }
    // Resumed from the lines (and without the split job's own line).
    for lost in [None, Some(wins.id)] {
        let lines = LogContents {
            jobs: log
                .jobs
                .iter()
                .filter(|l| Some(l.id) != lost)
                .cloned()
                .collect(),
            ..log.clone()
        };
        let mut resumed = Manager::new(pos, config, &lines);
        if lost.is_none() {
            assert!(resumed.done(), "the resumed proof is not complete");
            assert_eq!(resumed.value(), Some(value));
        }
        // Either way the start's "does white avoid losing?" is known.
        let asked = std::iter::from_fn(|| resumed.next_job())
            .take(3)
            .collect::<Vec<_>>();
        assert!(
            asked
                .iter()
                .all(|j| rules::position_key(&j.pos) != root_key || j.question == Question::Wins),
            "the resumed proof asks the start again: {asked:?}"
        );
    }
}

/// A split whose question the answers a job's worker knew below settle
/// (`known` lines, not jobs' own) is met again on resume: the pawn game
/// 5x5's start, value only, two workers; "does white win?" answers no and
/// its worker knew every child's "does black win?"; the idle worker splits
/// the other job, and the known answers settle it. A resumed manager (as
/// a run would make it, and as `--status` does) knows the value. Mutant
/// (split positions continued like others): it asks the start again.
#[test]
fn a_split_settled_by_known_answers_survives_a_resume() {
    use peasant::solve::Question;
    let StartProof {
        pos,
        solver,
        config,
        mut log,
        mut m,
        wins,
        avoids,
    } = start_proof_5x5(2, 1000);
    let mut r = true_result(&solver, &wins);
    assert_eq!(r.answer(), Answer::No, "the start is a draw");
    for &mv in pos.legal_moves().iter() {
        let c = rules::canonical(&pos.play(mv));
        let known = solver.answer(&c, Question::Wins, None).unwrap();
        r.known.push((c, Question::Wins, known));
    }
    finish_into(&mut m, &r, &mut log);
    let _ = m.next_job();
    log.jobs.extend(m.take_records());
    assert!(
        m.done(),
        "the known answers settle the split job's question"
    );
    assert!(m.unneeded_jobs().contains(&avoids.id));
    finish_into(&mut m, &result_of(avoids.id, Answer::Open, true), &mut log);
    let status = ManagerConfig {
        job_nodes: 1,
        max_job_nodes: 1,
        growth: 2,
        workers: 1,
        all_moves: false,
        keep_child: true,
    };
    for config in [config, status] {
        let mut resumed = Manager::new(pos, config, &log);
        assert!(
            resumed.done(),
            "{config:?}: the resumed proof asks {:?}",
            resumed.next_job().map(|j| (j.pos, j.question))
        );
    }
}

/// A merge keeps the `dep` of jobs below a second split of the same pair:
/// the two splits' lines are alike (no nodes), so the second is skipped as
/// a duplicate and the jobs below it name the first.
#[test]
fn a_merge_keeps_the_dep_of_jobs_below_a_repeated_split() {
    use peasant::solve::Question;
    let pos = position("pawngame", "5x5", true);
    let root = rules::canonical(&pos);
    let kids: Vec<Position> = pos
        .legal_moves()
        .iter()
        .map(|&mv| rules::canonical(&pos.play(mv)))
        .collect();
    let line = |p: Position, answer, nodes, id, dep| prove::JobRecord {
        pos: p,
        question: if p == root {
            Question::AvoidsLoss
        } else {
            Question::Wins
        },
        answer,
        nodes,
        seconds: if nodes > 0 { 1.0 } else { 0.0 },
        best: None,
        id,
        dep,
        kind: if nodes > 0 {
            prove::LineKind::Job
        } else {
            prove::LineKind::Split
        },
    };
    let lines = [
        line(root, Answer::Open, 0, 1, 0),
        line(kids[0], Answer::Open, 10, 2, 1),
        line(root, Answer::Open, 0, 3, 0),
        line(kids[1], Answer::Open, 11, 4, 3),
    ];
    let dir = temp_dir("prove-merge-splits");
    let (from, to) = (dir.join("from"), dir.join("to"));
    let mut writer = LogWriter::open(&from, pos.variant()).unwrap();
    for l in &lines {
        writer.append_job(l).unwrap();
    }
    writer.sync().unwrap();
    drop(writer);
    let report = prove::merge(&[from], &to).unwrap();
    assert_eq!(report.duplicates, 1);
    let merged = read(&to, pos.variant());
    let split = merged.jobs.iter().find(|j| j.pos == root).unwrap().id;
    for kid in &kids[..2] {
        let below = merged.jobs.iter().find(|j| j.pos == *kid).unwrap();
        assert_eq!(below.dep, split, "{below:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a running job asks, as `prove` announces its long jobs: the line
/// of real moves from the root leads to the job's position (canonically),
/// and the question is put to the side to move there. Checked for the
/// next 300 jobs of a 5x5 proof stopped after 8 jobs (20 complete it,
/// since leaves settled one ply down get no job): the free leaves
/// first, then jobs below split running ones (deeper lines).
#[test]
fn a_running_job_is_named_by_its_line_and_question() {
    use peasant::solve::Question;
    let pos = position("pawngame", "5x5", true);
    let dir = temp_dir("prove-job-text");
    let (_, end, _) = ProofRun::new(20).max_jobs(8).run(&pos, &dir);
    assert_eq!(end, RunEnd::JobLimit);
    let config = expanding(20, 1);
    let mut m = Manager::new(pos, config, &read(&dir, pos.variant()));
    let (mut jobs, mut longest) = (0, 0);
    while let Some(job) = m.next_job().filter(|_| jobs < 300) {
        let text = m.job_text(job.id).unwrap();
        let (place, asked) = text.split_once(": does ").unwrap();
        let mut at = pos;
        let mut plies = 0;
        if place != "the root" {
            for san in place.split_whitespace().filter(|t| !t.contains('.')) {
                at = at.play(at.parse_move(san).unwrap());
                plies += 1;
            }
        }
        assert_eq!(
            rules::position_key(&rules::canonical(&at)),
            rules::position_key(&job.pos),
            "{text}"
        );
        let question = match job.question {
            Question::Wins => "win?",
            Question::AvoidsLoss => "avoid losing?",
        };
        assert_eq!(asked, format!("{} {question}", at.turn()), "{text}");
        longest = longest.max(plies);
        jobs += 1;
    }
    assert!(
        jobs >= 10 && longest >= 3,
        "{jobs} jobs, longest line {longest}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pawn game 5x5's start with "does white win?" answered no in the
/// log, so that every job is on "does white avoid losing?" at the start
/// and below it: the manager's choice of child is then the question.
fn keep_start() -> (Position, LogContents, Vec<Position>) {
    use peasant::solve::Question;
    let pos = position("pawngame", "5x5", true);
    let root = rules::canonical(&pos);
    let log = LogContents {
        variant: pos.variant(),
        jobs: vec![prove::JobRecord {
            pos: root,
            question: Question::Wins,
            answer: Answer::No,
            nodes: 10,
            seconds: 0.0,
            best: None,
            id: 1,
            dep: 0,
            kind: prove::LineKind::Job,
        }],
        roots: Vec::new(),
        damaged: Vec::new(),
    };
    let children = root
        .legal_moves()
        .iter()
        .map(|&mv| rules::canonical(&root.play(mv)))
        .collect();
    (pos, log, children)
}

fn key(pos: &Position) -> u128 {
    rules::position_key(&rules::canonical(pos))
}

/// Whether `pos` is one move below `parent` (both canonical).
fn is_child(pos: &Position, parent: &Position) -> bool {
    parent
        .legal_moves()
        .iter()
        .any(|&mv| key(&parent.play(mv)) == key(pos))
}

/// The proof keeps to a move it has spent on, as the proof-number search
/// keeps its best child: after the start's job and its first child's
/// have run out (both positions expanded), the next job is below that
/// child, where by the numbers alone (`keep_child` off) a sibling, whose
/// numbers look better only because nothing below it is known, is next.
/// And the first child kept is the one the start's job had spent most
/// on (its warm start's entries), not the first in the move order.
/// Mutants: the work left out of the choice; the warm start's work not
/// handed to the children (or to the other question's pairs).
#[test]
fn the_proof_keeps_to_the_move_it_has_spent_on() {
    use peasant::solve::{PnEntry, Question};
    let (pos, log, children) = keep_start();
    for keep in [true, false] {
        let config = ManagerConfig {
            all_moves: false,
            keep_child: keep,
            ..expanding(10, 1)
        };
        let mut m = Manager::new(pos, config, &log);
        let first = m.next_job().unwrap();
        assert_eq!(key(&first.pos), key(&pos));
        assert_eq!(first.question, Question::AvoidsLoss);
        // The start's job ran out after spending most of its nodes below
        // its third child (the children's side to move is the attacker of
        // "does white avoid losing?").
        let favourite = children[2];
        let warm = vec![PnEntry {
            key: key(&favourite) | 1,
            phi: 5,
            delta: 5,
            work: 900,
        }];
        let mut r = result_of(first.id, Answer::Open, false);
        r.end = prove::JobEnd::Open { warm: Some(warm) };
        r.nodes = 1000;
        m.finish(&r);
        let second = m.next_job().unwrap();
        assert_eq!(second.question, Question::Wins);
        assert!(is_child(&second.pos, &pos));
        assert_eq!(
            key(&second.pos) == key(&favourite),
            keep,
            "keep_child {keep}: the second job is not where the first had gone"
        );
        m.finish(&result_of(second.id, Answer::Open, false));
        let third = m.next_job().unwrap();
        assert_eq!(
            is_child(&third.pos, &second.pos),
            keep,
            "keep_child {keep}: {} after {}",
            third.pos,
            second.pos
        );
    }
}

/// A resumed proof keeps to the moves its log spent on: the work below a
/// move counts every job of its subtree, not only the job on the move's
/// own position. The log: the start's job ran out (10 nodes), then its
/// first child's (10), a job below that child's first child (1,000), and
/// the start's second child's (50). Resumed, the next job is below the
/// first child's first child, where the work went; counting only each
/// position's own jobs (the mutant) the second child would win.
#[test]
fn a_resumed_proof_keeps_to_the_moves_its_log_spent_on() {
    use peasant::solve::Question;
    let (pos, mut log, children) = keep_start();
    let root = rules::canonical(&pos);
    let grandchild = rules::canonical(&children[0].play(children[0].legal_moves()[0]));
    let open = |p: Position, q: Question, nodes: u64, id: u64, dep: u64| prove::JobRecord {
        pos: p,
        question: q,
        answer: Answer::Open,
        nodes,
        seconds: 0.0,
        best: None,
        id,
        dep,
        kind: prove::LineKind::Job,
    };
    log.jobs.extend([
        open(root, Question::AvoidsLoss, 10, 2, 0),
        open(children[0], Question::Wins, 10, 3, 2),
        open(grandchild, Question::AvoidsLoss, 1000, 4, 3),
        open(children[1], Question::Wins, 50, 5, 2),
    ]);
    let config = ManagerConfig {
        all_moves: false,
        ..expanding(10, 1)
    };
    let mut m = Manager::new(pos, config, &log);
    let next = m.next_job().unwrap();
    assert_eq!(next.question, Question::Wins);
    assert!(
        is_child(&next.pos, &grandchild),
        "{} is not below {grandchild}",
        next.pos
    );
}
