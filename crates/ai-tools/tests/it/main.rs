//! Integration tests of the AI tool layer (`tools.md` §15 and §16), one binary (D-9).
