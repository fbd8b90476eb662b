import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { modelsForChoiceQuery } from "./api.ts";
import { claimDemoNotice } from "./chat-notices.tsx";
import { forgetModelChoice, useModelChoice } from "./preferences.ts";

/** The model this chat's replies use, as the server checked it, and whether to show its demo notice. */
export function useChosenModel(userId: string) {
  // The chosen model, checked by the server: one that is gone (or no longer allowed) quietly
  // gives way to the default (§4 "Model choice").
  const [storedModel] = useModelChoice(userId);
  const models = useQuery(modelsForChoiceQuery(storedModel));
  const checkedModel = models.data?.selected_id;
  useEffect(() => {
    if (storedModel && checkedModel && checkedModel !== storedModel) forgetModelChoice(userId);
  }, [storedModel, checkedModel, userId]);

  // The demo-model notice, once per browser session.
  const [demoNotice, setDemoNotice] = useState<boolean | null>(null);
  const selectedModel = models.data?.models.find((model) => model.id === models.data?.selected_id);
  useEffect(() => {
    if (demoNotice === null && selectedModel) setDemoNotice(selectedModel.is_demo && claimDemoNotice());
  }, [demoNotice, selectedModel]);

  return { selectedModel, demoNotice, hideDemoNotice: () => setDemoNotice(false) };
}
