//! Schema as code: the definition, CloudFormation, drawing, capacity, planning, live tables.

mod capacity;
mod cfn_lint;
mod definition;
mod drawing;
mod global;
mod import;
mod planning;
mod server;
mod settings;
mod stream;
