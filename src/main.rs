fn main() {
    println!("{}", pi::VERSION);
}
