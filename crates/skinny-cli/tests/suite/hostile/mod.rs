//! Hostile input and hostile places: fresh-machine checks and paths an attacker picks.

mod fresh;
mod paths;
