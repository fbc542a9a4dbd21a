package dev.ctxpack.assemble;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Replays a conversation turn by turn: at each user turn, the window is assembled with that turn as
 * the query and every turn before it as the history (the rest of the request — model, system
 * prompt, tools, examples, memories, retrieval, limits — from a base request), and the tokens per
 * component are recorded. What the model sent back (assistant turns, tool calls and results) joins
 * the history as the transcript has it. Shows how a conversation grows into its window and at which
 * turn the history stops being sent whole.
 */
public final class Replay {
  private final Assembler assembler;

  public Replay(Assembler assembler) {
    this.assembler = assembler;
  }

  /**
   * One assembled turn: {@code turn} counts user turns from 1, {@code index} is the user turn's
   * position in the transcript (from 0).
   */
  public record Step(int turn, int index, Assembly.WindowBudget budget, Assembly.HistoryReport history, int tools, boolean evidence) {}

  /**
   * Every step, and the first turn whose history was not sent whole ({@code compressionStartsAt},
   * 0 when none was).
   */
  public record Result(List<Step> steps, int compressionStartsAt, int window, int reserve, int limit) {
    public Result {
      steps = List.copyOf(steps);
    }
  }

  public Result run(AssembleRequest base, List<Turn> transcript) throws IOException {
    List<Step> steps = new ArrayList<>();
    int starts = 0;
    int turn = 0;
    for (int i = 0; i < transcript.size(); i++) {
      Turn t = transcript.get(i);
      if (!t.role().equals("user")) continue;
      turn++;
      Assembly a;
      try {
        a = assembler.assemble(base.withConversation(transcript.subList(0, i), t.content()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("turn " + turn + " (transcript line " + (i + 1) + "): " + e.getMessage(), e);
      }
      steps.add(new Step(turn, i, a.budget(), a.history(), a.tools().size(), a.evidence().isPresent()));
      if (starts == 0 && a.history().compacted()) starts = turn;
    }
    if (steps.isEmpty()) throw new IllegalArgumentException("the transcript has no user turn to replay");
    return new Result(steps, starts, base.window(), base.reserve(), base.limit());
  }
}
