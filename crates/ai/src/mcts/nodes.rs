//! A search tree's nodes, in chunks of [`CHUNK`] that never move.
//!
//! A tree grows by a node an iteration, a few thousand a search. In one `Vec` it grew by
//! doubling: each doubling copied every node (each holding a whole game state) and asked
//! the allocator for a block twice as big, which past a few hundred kilobytes is fresh
//! memory from the system, zeroed page by page at its first touch — in a King of the Hill
//! search about a tenth of the time went to that copying and those page faults
//! (docs/strength.md, "The tree's nodes in chunks"). In chunks, a node is written once
//! where it stays, and the chunks are blocks of one size that the allocator hands from
//! search to search on the same thread. Rejected: reserving the whole tree up front —
//! how many nodes a work budget pays for depends on the position, and reserving for the
//! worst case touches memory most searches never use.

use std::ops::{Index, IndexMut};

/// Nodes in a chunk.
const CHUNK: usize = 256;

/// A growable list of nodes, indexed like a `Vec`, whose elements never move.
pub(super) struct Nodes<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Nodes<T> {
    fn default() -> Self {
        Nodes {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Nodes<T> {
    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(super) fn push(&mut self, node: T) {
        let chunk = self.len / CHUNK;
        if chunk == self.chunks.len() {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        self.chunks[chunk].push(node);
        self.len += 1;
    }

    /// Drop every node, keeping the chunks' memory for the next nodes.
    pub(super) fn clear(&mut self) {
        for c in &mut self.chunks {
            c.clear();
        }
        self.len = 0;
    }

    pub(super) fn first(&self) -> Option<&T> {
        self.chunks.first().and_then(|c| c.first())
    }

    #[cfg(test)]
    pub(super) fn iter(&self) -> impl Iterator<Item = &T> {
        self.chunks.iter().flatten()
    }
}

impl<T> Index<usize> for Nodes<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.chunks[i / CHUNK][i % CHUNK]
    }
}

impl<T> IndexMut<usize> for Nodes<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.chunks[i / CHUNK][i % CHUNK]
    }
}

#[cfg(test)]
impl<'a, T> IntoIterator for &'a Nodes<T> {
    type Item = &'a T;
    type IntoIter = std::iter::Flatten<std::slice::Iter<'a, Vec<T>>>;
    fn into_iter(self) -> Self::IntoIter {
        self.chunks.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_are_indexed_in_the_order_pushed_across_chunks_and_cleared() {
        let mut n = Nodes::default();
        assert!(n.is_empty() && n.first().is_none());
        for i in 0..(3 * CHUNK + 7) {
            n.push(i);
        }
        assert_eq!(n.len(), 3 * CHUNK + 7);
        assert_eq!(n[0], 0);
        assert_eq!(n[CHUNK], CHUNK);
        assert_eq!(n[3 * CHUNK + 6], 3 * CHUNK + 6);
        n[CHUNK + 1] = 99;
        assert_eq!(n[CHUNK + 1], 99);
        assert_eq!(n.iter().count(), 3 * CHUNK + 7);
        assert!(n.iter().enumerate().all(|(i, &v)| v == i || i == CHUNK + 1));
        n.clear();
        assert!(n.is_empty());
        n.push(5);
        assert_eq!((n.len(), n[0], n.first()), (1, 5, Some(&5)));
        assert_eq!((&n).into_iter().count(), 1);
    }
}
