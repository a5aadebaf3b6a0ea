import { useInfiniteQuery, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import { cursorPaging, queryClient } from "../../../lib/query";
import type { AnswerView, Page, QuestionDetail, QuestionView } from "../../../lib/api-types";
import { accountKeys } from "../../account";

export type QuestionSort = "new" | "hot" | "unanswered" | "bounty";

export const questionKeys = {
  all: ["questions"] as const,
  list: (sort: QuestionSort, following = false) => ["questions", "list", sort, following] as const,
  detail: (id: number) => ["questions", "detail", id] as const,
  answers: (id: number, from: string | null) => ["questions", "answers", id, from] as const,
};

/** `following`: only questions by the people the reader follows; `limit`: a page's length
 * (the server's default when not given). */
export function useQuestions(sort: QuestionSort, following = false, limit?: number) {
  return useInfiniteQuery({
    queryKey: [...questionKeys.list(sort, following), limit],
    queryFn: ({ pageParam }) => call<Page<QuestionView>>("/question/list", { sort, following, limit, cursor: pageParam }),
    ...cursorPaging,
  });
}

/** Silent: the page says when there is no such question. */
export function useQuestion(id: number) {
  return useQuery({
    queryKey: questionKeys.detail(id),
    queryFn: () => call<QuestionDetail>("/question/detail", { id }, { silent: true }),
    enabled: Number.isSafeInteger(id) && id > 0,
  });
}

/** The answers after the detail's first page, a page at a time from `from` (its
 * `answers_next_cursor`), when the reader asks for them. */
export function useMoreAnswers(id: number, from: string | null) {
  return useInfiniteQuery({
    queryKey: questionKeys.answers(id, from),
    queryFn: ({ pageParam }) => call<Page<AnswerView>>("/question/answers", { id, cursor: pageParam }),
    initialPageParam: from,
    getNextPageParam: (last: Page<AnswerView>) => last.next_cursor,
    enabled: false,
  });
}

/** Questions and balances change together (a bounty moves points). */
const refresh = <T,>(answer: T) => {
  void queryClient.invalidateQueries({ queryKey: questionKeys.all });
  void queryClient.invalidateQueries({ queryKey: accountKeys.balance() });
  return answer;
};

export interface NewQuestion {
  title: string;
  content: string;
  tags: number[];
  bounty: number | null;
}

/** Silent: the form shows the refusal. */
export const askQuestion = (q: NewQuestion) => call<QuestionView>("/question/create", q, { silent: true }).then(refresh);
export const answerQuestion = (questionId: number, content: string) =>
  call<{ id: number }>("/answer/create", { question_id: questionId, content }, { silent: true }).then(refresh);
export const acceptAnswer = (answerId: number) => call("/answer/accept", { answer_id: answerId }).then(refresh);
