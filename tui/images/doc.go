// Package images draws screenshots on the terminal the screen runs in,
// in one of three ways: as pixels, through the kitty graphics protocol with
// Unicode placeholders (the picture is sent once, then shown by cells of a
// private-use character that move with the layout like any text); as
// half-block cells (render.HalfBlock), which every colour terminal shows;
// or as a line of text ("[screenshot 1280×800]") where colours are off.
//
// A Terminal is one terminal's side of this: the way it draws, and the
// pictures it already holds, so that a picture is sent once however often
// and wherever it is shown. A Probe decides the way from what the terminal
// says when the screen starts. Picture data comes from agents: it is
// decoded (render.DecodeImage) and drawn again before anything of it
// reaches the terminal, and only as base64 in the protocol's own codes.
package images
