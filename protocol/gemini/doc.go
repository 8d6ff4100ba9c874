// Package gemini turns the session files Google's Gemini CLI writes
// (~/.gemini/tmp/<project>/chats/session-<date>-<id8>.jsonl, a subagent's
// in chats/<parent session id>/<id>.jsonl) into AG-UI events, so that every
// view, fold, replay and check of agentwatch works on a Gemini session as
// on an AG-UI log. Only the JSON Lines form is read; the single .json
// document older builds rewrote whole is not.
//
// A session file is a log of records (gemini-cli, packages/core/src/
// services/chatRecordingTypes.ts and chatRecordingService.ts): a first
// record of the session's metadata {sessionId, projectHash, startTime,
// lastUpdated, kind}; message records {id, timestamp, type, content, …};
// {"$set": {…}} records that update the metadata; and {"$rewindTo": id}
// records that drop the message id and every one after it. A message is
// written again, whole, each time it changes (its tokens counted, its tool
// calls done): the last record of an id wins. A Translator reads the
// records in order and keeps only what a later one needs (the open run,
// what it already showed of each message still changing, the run of each
// message), so it gives the same records however the bytes were cut; it
// knows no files. Each record it returns names its thread
// (model.Record.Thread): the session's id.
//
// The mapping: the metadata names the thread and, with each message's
// model, makes its state (a STATE_SNAPSHOT: projectHash, kind, model). A
// user message the person typed starts a run whose parent is the run of
// the message before it, with the prompt as a user text message; a user
// message that only carries tool responses back to the model is not a
// prompt and shows nothing (the calls' results are in the calls). A run
// ends when the next one starts: Gemini CLI writes no end of a turn, so
// the last run of a session stays open. A gemini message is assistant
// text, its thoughts reasoning, and each of its tool calls a step of the
// category Gemini CLI's own tools have (tools.go), completed, failed or
// cancelled by the call's status (success, error, cancelled), with the
// result the user saw (the resultDisplay, an edit's diff) or else the
// one the model got. An error message is a RUN_ERROR; info and warning
// messages are ACTIVITY_SNAPSHOTs of that activityType while a run is
// open, and nothing between runs. A $set of summary is a CUSTOM "title"
// event; a $set of messages (a checkpoint of the whole history) is read
// as those messages written again; other $set members show nothing.
//
// Re-written messages: for each message still changing the Translator
// keeps how many thoughts it showed, whether it showed its text, and each
// tool call's state, and shows only what is new: a thought added, a call
// first seen (TOOL_CALL_START, ARGS, END), a call whose status became
// terminal (TOOL_CALL_RESULT). A message's text is shown whole, as one
// text message, the first time it is not empty; text that changes after
// that (Gemini CLI does not grow a message's text, it only masks old
// tool output in checkpoints) cannot be said as AG-UI once the message has
// ended and is not shown. Nothing more of a message shows once its run
// has ended (a later prompt, an error, a rewind): its calls still running
// end with the run. A message whose calls are all done is forgotten
// when the next run starts: written again later, it shows nothing.
//
// A rewind ($rewindTo) ends the open run; the next prompt's parent is then
// the run of the message before the one rewound to, so the new prompt
// starts a branch of the run tree beside the run that was rewound, as a
// Claude Code rewind does. The messages dropped stay on screen, in the
// branch they were in.
//
// Subagents (subagent.go): given a way to read a subagent's file
// (ReadSubagents), the Translator reads it when the call that ran it is
// recorded, done, with its agentId: the subagent's records come between
// the call's start and its result, as a SUBAGENT_STARTED under the call,
// its own messages and steps marked as its run, and SUBAGENT_FINISHED or
// SUBAGENT_ERROR as the call ended.
//
// Records of shapes this package does not know, and lines that are not
// JSON, are skipped: newer builds add members and record kinds.
package gemini
