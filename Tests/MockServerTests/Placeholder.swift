import Testing

@Test func mockServerTestsBuilds() {
    #expect(Bool(true))
}
