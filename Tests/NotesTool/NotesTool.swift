import CourierTool

// The README's notes API (NotesAPI.swift, the same file as Tests/MockServerContractTests/ExampleAPI's) as a
// command-line tool: openapi, mock, call and verify.
@main struct NotesTool {
    static func main() async {
        await CourierTool(name: "notes", apis: [NotesAPI.self]).run()
    }
}
